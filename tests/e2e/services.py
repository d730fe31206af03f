"""Start and stop the real services of the end-to-end tests on free 127.0.0.1 ports.

Each service runs as a child process with its own log file and is stopped by its PID; every wait is
bounded and fails with the service's log tail, so a broken start says why.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

REPO = Path(__file__).resolve().parents[2]
COLLECTOR_DIR = REPO / "collector-config"
COLLECTOR_BIN = COLLECTOR_DIR / "bin" / "otelcol-groundedness"
PROMETHEUS_DIR = COLLECTOR_DIR / "prometheus"
# What the Collector logs once every pipeline has started.
COLLECTOR_READY = "Everything is ready"

T = TypeVar("T")


def wait_for(what: str, probe: Callable[[], T | None], timeout: float, interval: float = 0.2) -> T:
    """Poll ``probe`` until it returns a value other than None; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        try:
            result = probe()
        except (OSError, ValueError) as error:  # connection refused, partial JSON, ...
            last_error = error
        else:
            if result is not None:
                return result
        time.sleep(interval)
    detail = f" (last error: {last_error!r})" if last_error else ""
    raise TimeoutError(f"timed out after {timeout:.0f}s waiting for {what}{detail}")


def write_yaml(path: Path, document: Any) -> Path:
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


def http_get(url: str, timeout: float = 5.0) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        body: bytes = response.read()
        return body.decode()


def http_get_json(url: str, timeout: float = 5.0) -> Any:
    return json.loads(http_get(url, timeout))


def http_ok(url: str) -> bool | None:
    """True when ``url`` answers 200; None while it does not (for ``wait_for``)."""
    try:
        http_get(url, timeout=2.0)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None
    return True


@dataclass
class Service:
    """A running child process, its log file, and how to stop it."""

    name: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def logged(self, text: str) -> bool | None:
        """True once ``text`` is in the log; None before (for ``wait_ready``)."""
        return True if text in self.log_path.read_text(errors="replace") else None

    def assert_running(self) -> None:
        code = self.process.poll()
        if code is not None:
            raise RuntimeError(f"{self.name} exited with {code}")

    def wait_ready(self, what: str, probe: Callable[[], T | None], timeout: float) -> T:
        """``wait_for`` that gives up early, with the log, when the process dies; a service that never
        gets ready is stopped before the error is raised, so no process outlives a failed start."""

        def checked() -> T | None:
            self.assert_running()
            return probe()

        try:
            return wait_for(f"{self.name}: {what}", checked, timeout)
        except (TimeoutError, RuntimeError) as error:
            self.stop()
            raise type(error)(f"{error}\n{self.name} log tail:\n{self.log_tail()}") from None

    def stop(self, timeout: float = 10.0) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)


def start_service(
    name: str, argv: Sequence[str], workdir: Path, env: dict[str, str] | None = None
) -> Service:
    """Start ``argv`` with stdout and stderr in ``workdir/<name>.log``."""
    workdir.mkdir(parents=True, exist_ok=True)
    log_path = workdir / f"{name}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            list(argv),
            cwd=workdir,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
        )
    return Service(name, process, log_path)
