"""Configuration: flags over ``OTEL_GROUNDEDNESS_GATEWAY_*`` over the YAML file over defaults; the
standard ``OTEL_EXPORTER_OTLP_*`` variables for the exporters; every bad value stops the start with
one line naming where it came from (exit 2 from the command)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from otel_groundedness.gateway.listen import ListenAddress
from otel_groundedness.gateway.otlp_env import export_target
from otel_groundedness.gateway.service import Gateway
from otel_groundedness.gateway.settings import (
    DEFAULT_GRPC_LISTEN,
    ConfigError,
    GatewaySettings,
    default_wal_dir,
    load_settings,
)
from otel_groundedness.scoring import GroundednessPolicy

NO_FLAGS: dict[str, str | None] = {}


def test_flags_win_over_environment_which_wins_over_the_file(tmp_path: Path) -> None:
    config = tmp_path / "gateway.yaml"
    config.write_text("trace_idle_s: 3\nmax_traces: 7\nlog_level: debug\npolicy: {min_alert_score: 0.5}\n")
    environ = {"OTEL_GROUNDEDNESS_GATEWAY_MAX_TRACES": "9", "OTEL_GROUNDEDNESS_GATEWAY_TRACE_IDLE_S": "4"}
    settings = load_settings({"trace_idle_s": "5"}, environ, config)
    assert (settings.trace_idle_s, settings.max_traces, settings.log_level) == (5.0, 9, "debug")
    assert settings.policy == GroundednessPolicy(min_alert_score=0.5)
    defaults = replace(GatewaySettings(), wal_dir=default_wal_dir({}, DEFAULT_GRPC_LISTEN))
    assert load_settings(NO_FLAGS, {}) == defaults


def test_the_write_ahead_log_is_on_by_default_under_the_xdg_state_directory(tmp_path: Path) -> None:
    state = {"XDG_STATE_HOME": str(tmp_path)}
    assert load_settings(NO_FLAGS, state).wal_dir == tmp_path / "otel-groundedness" / "gateway-4317"
    listen = {"grpc_listen": "127.0.0.1:24317"}
    assert load_settings(listen, state).wal_dir == tmp_path / "otel-groundedness" / "gateway-24317"
    # Unset, or not absolute (the XDG specification says to ignore it then): ~/.local/state.
    home_default = Path.home() / ".local" / "state" / "otel-groundedness" / "gateway-4317"
    assert load_settings(NO_FLAGS, {}).wal_dir == home_default
    assert load_settings(NO_FLAGS, {"XDG_STATE_HOME": "relative"}).wal_dir == home_default


def test_the_write_ahead_log_is_set_by_flag_variable_or_file_and_can_be_off(tmp_path: Path) -> None:
    config = tmp_path / "gateway.yaml"
    config.write_text(f"wal_dir: {tmp_path / 'from-file'}\nmax_wal_bytes: 8388608\ndedup_window_spans: 10\n")
    from_file = load_settings(NO_FLAGS, {}, config)
    assert (from_file.wal_dir, from_file.max_wal_bytes, from_file.dedup_window_spans) == (
        tmp_path / "from-file",
        8388608,
        10,
    )
    environ = {"OTEL_GROUNDEDNESS_GATEWAY_WAL_DIR": str(tmp_path / "from-env")}
    assert load_settings(NO_FLAGS, environ, config).wal_dir == tmp_path / "from-env"
    assert load_settings({"wal_dir": "off"}, environ, config).wal_dir is None
    with pytest.raises(ConfigError, match=r"max_request_bytes .* exceeds max_wal_bytes"):
        load_settings({"max_wal_bytes": "1000"}, {})


def test_two_gateways_cannot_share_a_write_ahead_log(tmp_path: Path) -> None:
    local = ListenAddress("127.0.0.1", 0)
    settings = GatewaySettings(
        grpc_listen=local, http_listen=local, prometheus_listen=None, wal_dir=tmp_path / "wal"
    )
    environ = {"OTEL_METRICS_EXPORTER": "none"}
    first = Gateway(settings, environ)
    try:
        with pytest.raises(ConfigError, match=r"cannot use wal_dir .*wal: .* in use by another gateway"):
            Gateway(settings, environ)
    finally:
        first.start()
        first.shutdown()


def test_prometheus_can_be_turned_off_and_addresses_parse() -> None:
    settings = load_settings({"prometheus_listen": "off", "grpc_listen": "[::1]:4317"}, {})
    assert settings.prometheus_listen is None
    assert settings.grpc_listen == ListenAddress("::1", 4317)


@pytest.mark.parametrize(
    ("flags", "environ", "yaml_text", "message"),
    [
        ({"max_traces": "0"}, {}, None, "invalid --max-traces: not a positive integer: '0'"),
        (
            {},
            {"OTEL_GROUNDEDNESS_GATEWAY_TRACE_IDLE_S": "soon"},
            None,
            "invalid OTEL_GROUNDEDNESS_GATEWAY_TRACE_IDLE_S",
        ),
        ({}, {}, "grpc_listen: localhost\n", "invalid grpc_listen in"),
        ({}, {}, "max_trace: 3\n", "unknown setting 'max_trace'"),
        ({}, {}, "- a list\n", "expected a mapping of settings"),
        ({}, {}, "policy: {min_alert_score: 2}\n", "invalid policy in"),
        ({}, {"OTEL_GROUNDEDNESS_MIN_ALERT_SCORE": "2"}, None, "invalid policy environment"),
        (
            {"max_request_bytes": "2000", "max_buffer_bytes": "1000"},
            {},
            None,
            "max_request_bytes (2000) exceeds",
        ),
        ({"trace_idle_s": "30", "max_trace_wait_s": "10"}, {}, None, "shorter than trace_idle_s"),
        ({"tls_cert_file": " "}, {}, None, "invalid --tls-cert-file: empty file name"),
    ],
)
def test_bad_values_stop_the_start_with_one_line(
    tmp_path: Path, flags: dict[str, str | None], environ: dict[str, str], yaml_text: str | None, message: str
) -> None:
    config = None
    if yaml_text is not None:
        config = tmp_path / "gateway.yaml"
        config.write_text(yaml_text)
    with pytest.raises(ConfigError) as raised:
        load_settings(flags, environ, config)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_exporter_endpoints_follow_the_otlp_variables() -> None:
    grpc = export_target("traces", {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://back:4317"})
    assert (grpc.protocol, grpc.endpoint, grpc.tls, grpc.timeout_s) == ("grpc", "back:4317", False, 10.0)
    environ = {
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
        "OTEL_EXPORTER_OTLP_ENDPOINT": "https://back:4318/",
        "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "https://logs:4318/custom",
        "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20t0k,x-tenant=a",
        "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "2500",
        "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
    }
    traces, logs = export_target("traces", environ), export_target("logs", environ)
    assert (traces.endpoint, traces.tls, traces.timeout_s, traces.gzip) == (
        "https://back:4318/v1/traces",
        True,
        2.5,
        True,
    )
    assert logs.endpoint == "https://logs:4318/custom"
    assert traces.headers == (("authorization", "Bearer t0k"), ("x-tenant", "a"))
    assert export_target("logs", {}).endpoint == "localhost:4317"


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, "invalid OTEL_EXPORTER_OTLP_PROTOCOL"),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "back:4317"}, "invalid OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
        ({"OTEL_EXPORTER_OTLP_HEADERS": "novalue"}, "invalid OTEL_EXPORTER_OTLP_HEADERS"),
        ({"OTEL_EXPORTER_OTLP_TIMEOUT": "-1"}, "invalid OTEL_EXPORTER_OTLP_TIMEOUT"),
        ({"OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"}, "invalid OTEL_EXPORTER_OTLP_COMPRESSION"),
    ],
)
def test_bad_exporter_variables_are_named(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        export_target("traces", environ)


def run_command(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "otel_groundedness", "gateway", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, env=env, check=False)


def test_the_command_exits_2_with_one_line_on_a_bad_flag_or_a_taken_port(tmp_path: Path) -> None:
    bad = run_command("--trace-idle-s", "never")
    assert bad.returncode == 2
    assert bad.stderr == "otel-groundedness gateway: error: invalid --trace-idle-s: not a number: 'never'\n"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        listen = ["--grpc-listen", "127.0.0.1:0", "--http-listen", f"127.0.0.1:{port}"]
        env = {**os.environ, "OTEL_METRICS_EXPORTER": "none", "XDG_STATE_HOME": str(tmp_path)}
        busy = run_command(*listen, "--prometheus-listen", "off", env=env)
    assert busy.returncode == 2
    assert busy.stderr.splitlines()[-1].startswith(
        f"otel-groundedness gateway: error: cannot listen on 127.0.0.1:{port} (HTTP)"
    )


def test_an_unusable_write_ahead_log_directory_stops_the_command_with_one_line(tmp_path: Path) -> None:
    taken = tmp_path / "a-file"
    taken.write_text("not a directory")
    listen = ["--grpc-listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--prometheus-listen", "off"]
    env = {**os.environ, "OTEL_METRICS_EXPORTER": "none"}
    result = run_command(*listen, "--wal-dir", str(taken / "wal"), env=env)
    assert result.returncode == 2
    assert result.stderr.startswith(f"otel-groundedness gateway: error: cannot use wal_dir {taken / 'wal'}: ")
    assert result.stderr.count("\n") == 1
