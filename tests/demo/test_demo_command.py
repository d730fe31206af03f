"""``otel-groundedness demo`` option handling: invalid setups exit 2 with a clear message."""

from __future__ import annotations

import io
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from rich.console import Console

from otel_groundedness.cli.main import main
from otel_groundedness.demo import DemoOptions, run_demo
from tests.free_ports import free_port


def _demo(tmp_path: Path, *extra: str) -> int:
    return main(["demo", "--turns", "1", "--no-live", "--html", str(tmp_path / "r.html"), *extra])


def test_unusable_otlp_endpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _demo(tmp_path, "--prometheus-port", "0", "--otlp-endpoint", "ftp://127.0.0.1:21") == 2
    assert "--otlp-endpoint must be http://, https:// or grpc://" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_prometheus_port_in_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert _demo(tmp_path, "--prometheus-port", str(port)) == 2
    assert f"cannot serve metrics on 127.0.0.1:{port}" in capsys.readouterr().err


@pytest.mark.parametrize(
    "bad",
    [
        ["--turns", "0"],
        ["--fault-rate", "1.5"],
        ["--stream-share", "x"],
        ["--semconv", "v2"],
        ["--pace", "-2"],
        ["--pace", "nan"],
        ["--pace", "fast"],
        ["--linger", "-1"],
        ["--linger", "inf"],
        ["--linger", "nan"],
    ],
)
def test_invalid_flags_are_usage_errors(tmp_path: Path, bad: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["demo", *bad])
    assert stopped.value.code == 2


def _serving(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def test_without_linger_the_last_line_says_the_endpoint_closes_and_how_to_keep_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    assert _demo(tmp_path, "--prometheus-port", str(port)) == 0
    url = f"http://127.0.0.1:{port}/metrics"
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"Prometheus metrics were served at {url} during the run; --linger SECONDS keeps them up after it"
    )
    assert not _serving(url)


def test_linger_keeps_the_endpoint_up_after_the_summary(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/metrics"
    output = io.StringIO()
    options = DemoOptions(turns=1, prometheus_port=port, linger_s=3.0, live=False, html=tmp_path / "r.html")
    console = Console(file=output, width=200)
    demo = threading.Thread(target=run_demo, args=(options,), kwargs={"console": console})
    demo.start()
    announced = f"keeping metrics available at {url} for 3 s (Ctrl-C ends it sooner)"
    deadline = time.monotonic() + 60
    while announced not in output.getvalue() and demo.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert output.getvalue().splitlines()[-1] == announced
    assert _serving(url)
    demo.join(timeout=30)
    assert not demo.is_alive() and not _serving(url)
