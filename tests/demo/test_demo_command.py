"""``otel-groundedness demo`` option handling: invalid setups exit 2 with a clear message."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from otel_groundedness.cli.main import main


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
    ],
)
def test_invalid_flags_are_usage_errors(tmp_path: Path, bad: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["demo", *bad])
    assert stopped.value.code == 2
