"""``otel-groundedness gateway`` as a child process on 127.0.0.1 ports it picks itself (port 0): the
ports are read back from its ``gateway ready`` log line, so no port can be taken in between."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class GatewayProcess:
    process: subprocess.Popen[bytes]
    log_path: Path
    grpc_port: int
    http_port: int
    prometheus_port: int | None

    @property
    def grpc_endpoint(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"

    def log_entries(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line.startswith("{")]

    def terminate(self, timeout: float = 60) -> int:
        """SIGTERM, then the exit code (killed after ``timeout``: a drain must never hang)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def start_gateway_process(
    workdir: Path, name: str, *, env: dict[str, str], args: list[str] | None = None, timeout: float = 30
) -> GatewayProcess:
    """Start a gateway logging to ``workdir/<name>.log``; returns once it logged ``gateway ready``.

    Its state (the write-ahead log's default directory) is kept in ``workdir/<name>-state``, so that a
    gateway started again under the same name finds its log, and no test touches the user's own."""
    workdir.mkdir(parents=True, exist_ok=True)
    env = {"XDG_STATE_HOME": str(workdir / f"{name}-state"), **env}
    log_path = workdir / f"{name}.log"
    argv = [
        sys.executable, "-m", "otel_groundedness", "gateway", "--grpc-listen", "127.0.0.1:0",
        "--http-listen", "127.0.0.1:0", "--prometheus-listen", "127.0.0.1:0", *(args or []),
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env={**os.environ, **env}
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log_path.read_text(errors="replace").splitlines():
            if '"gateway ready"' in line:
                entry = json.loads(line)
                return GatewayProcess(
                    process, log_path, entry["grpc_port"], entry["http_port"], entry["prometheus_port"]
                )
        if process.poll() is not None:
            raise RuntimeError(f"gateway {name} exited {process.returncode}: {log_path.read_text()[-2000:]}")
        time.sleep(0.1)
    process.kill()
    raise TimeoutError(f"gateway {name} not ready after {timeout:g} s: {log_path.read_text()[-2000:]}")
