"""Settings: explicit arguments, environment twins, and how bad values are reported."""

from __future__ import annotations

import logging

import pytest

from otel_groundedness.processor.config import ProcessorSettings, enabled_from_env


def test_defaults_without_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "MAX_QUEUE_SIZE",
        "MAX_TRACES",
        "MAX_TRACE_BYTES",
        "MAX_BUFFER_BYTES",
        "TRACE_TTL_S",
        "EMIT_SPAN_EVENT",
        "EMIT_LOG_RECORD",
        "ENABLED",
    ):
        monkeypatch.delenv(f"OTEL_GROUNDEDNESS_{name}", raising=False)
    assert ProcessorSettings.resolve() == ProcessorSettings()
    assert enabled_from_env() is False


def test_environment_twins_fill_unset_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_GROUNDEDNESS_MAX_QUEUE_SIZE", "64")
    monkeypatch.setenv("OTEL_GROUNDEDNESS_MAX_TRACES", "10")
    monkeypatch.setenv("OTEL_GROUNDEDNESS_MAX_TRACE_BYTES", "4096")
    monkeypatch.setenv("OTEL_GROUNDEDNESS_MAX_BUFFER_BYTES", "65536")
    monkeypatch.setenv("OTEL_GROUNDEDNESS_TRACE_TTL_S", "2.5")
    monkeypatch.setenv("OTEL_GROUNDEDNESS_EMIT_SPAN_EVENT", "false")
    monkeypatch.setenv("OTEL_GROUNDEDNESS_EMIT_LOG_RECORD", "FALSE")
    monkeypatch.setenv("OTEL_GROUNDEDNESS_ENABLED", "True")
    assert ProcessorSettings.resolve(max_traces=3) == ProcessorSettings(
        max_queue_size=64,
        max_traces=3,
        max_trace_bytes=4096,
        max_buffer_bytes=65536,
        trace_ttl_s=2.5,
        emit_span_event=False,
        emit_log_record=False,
    )
    assert enabled_from_env() is True


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("OTEL_GROUNDEDNESS_MAX_QUEUE_SIZE", "lots"),
        ("OTEL_GROUNDEDNESS_MAX_TRACES", "-1"),
        ("OTEL_GROUNDEDNESS_TRACE_TTL_S", "inf"),
        ("OTEL_GROUNDEDNESS_EMIT_SPAN_EVENT", "maybe"),
    ],
)
def test_invalid_environment_values_are_logged_by_name_and_defaulted(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with caplog.at_level(logging.WARNING, logger="otel_groundedness.config"):
        assert ProcessorSettings.resolve() == ProcessorSettings()
    assert variable in caplog.text and repr(value) in caplog.text


@pytest.mark.parametrize(
    "argument", ["max_queue_size", "max_traces", "max_trace_bytes", "max_buffer_bytes", "trace_ttl_s"]
)
def test_invalid_explicit_arguments_raise_with_their_name(argument: str) -> None:
    with pytest.raises(ValueError, match=argument):
        ProcessorSettings.resolve(**{argument: 0})
