"""Processor settings: one dataclass, each field with an ``OTEL_GROUNDEDNESS_*`` environment twin.

An explicit constructor argument wins; otherwise the variable is read by the small ``_default_*``
function beside it, under ``env_config``'s rule: a malformed variable is logged with its name and
keeps its default, so a typo in the environment never stops the application (the SDK's batch
processors behave the same, and so does every policy variable).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from otel_groundedness.env_config import EnvReader, parse_bool, parse_positive_float, parse_positive_int

OTEL_GROUNDEDNESS_ENABLED = "OTEL_GROUNDEDNESS_ENABLED"
OTEL_GROUNDEDNESS_MAX_QUEUE_SIZE = "OTEL_GROUNDEDNESS_MAX_QUEUE_SIZE"
OTEL_GROUNDEDNESS_MAX_QUEUE_BYTES = "OTEL_GROUNDEDNESS_MAX_QUEUE_BYTES"
OTEL_GROUNDEDNESS_MAX_TRACES = "OTEL_GROUNDEDNESS_MAX_TRACES"
OTEL_GROUNDEDNESS_MAX_TRACE_BYTES = "OTEL_GROUNDEDNESS_MAX_TRACE_BYTES"
OTEL_GROUNDEDNESS_MAX_BUFFER_BYTES = "OTEL_GROUNDEDNESS_MAX_BUFFER_BYTES"
OTEL_GROUNDEDNESS_TRACE_TTL_S = "OTEL_GROUNDEDNESS_TRACE_TTL_S"
OTEL_GROUNDEDNESS_EMIT_SPAN_EVENT = "OTEL_GROUNDEDNESS_EMIT_SPAN_EVENT"
OTEL_GROUNDEDNESS_EMIT_LOG_RECORD = "OTEL_GROUNDEDNESS_EMIT_LOG_RECORD"

DEFAULT_MAX_QUEUE_SIZE = 2048
DEFAULT_MAX_QUEUE_BYTES = 64 * 1024 * 1024
DEFAULT_MAX_TRACES = 1024
DEFAULT_MAX_TRACE_BYTES = 512 * 1024
DEFAULT_MAX_BUFFER_BYTES = 64 * 1024 * 1024
DEFAULT_TRACE_TTL_S = 60.0

_T = TypeVar("_T")


def _from_env(name: str, parse: Callable[[str], _T], default: _T) -> _T:
    reader = EnvReader(os.environ)
    value = reader.get(name, parse, default)
    reader.warn()
    return value


def _default_enabled() -> bool:
    return _from_env(OTEL_GROUNDEDNESS_ENABLED, parse_bool, False)


def _default_max_queue_size() -> int:
    return _from_env(OTEL_GROUNDEDNESS_MAX_QUEUE_SIZE, parse_positive_int, DEFAULT_MAX_QUEUE_SIZE)


def _default_max_queue_bytes() -> int:
    return _from_env(OTEL_GROUNDEDNESS_MAX_QUEUE_BYTES, parse_positive_int, DEFAULT_MAX_QUEUE_BYTES)


def _default_max_traces() -> int:
    return _from_env(OTEL_GROUNDEDNESS_MAX_TRACES, parse_positive_int, DEFAULT_MAX_TRACES)


def _default_max_trace_bytes() -> int:
    return _from_env(OTEL_GROUNDEDNESS_MAX_TRACE_BYTES, parse_positive_int, DEFAULT_MAX_TRACE_BYTES)


def _default_max_buffer_bytes() -> int:
    return _from_env(OTEL_GROUNDEDNESS_MAX_BUFFER_BYTES, parse_positive_int, DEFAULT_MAX_BUFFER_BYTES)


def _default_trace_ttl_s() -> float:
    return _from_env(OTEL_GROUNDEDNESS_TRACE_TTL_S, parse_positive_float, DEFAULT_TRACE_TTL_S)


def _default_emit_span_event() -> bool:
    return _from_env(OTEL_GROUNDEDNESS_EMIT_SPAN_EVENT, parse_bool, True)


def _default_emit_log_record() -> bool:
    return _from_env(OTEL_GROUNDEDNESS_EMIT_LOG_RECORD, parse_bool, True)


def _positive(name: str, value: _T) -> _T:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return value


def enabled_from_env() -> bool:
    """Whether the zero-code path should install the processor (``OTEL_GROUNDEDNESS_ENABLED``)."""
    return _default_enabled()


@dataclass(frozen=True, slots=True)
class ProcessorSettings:
    """Bounds and switches of one processor; see ``docs/processor.md`` for the table."""

    max_queue_size: int = DEFAULT_MAX_QUEUE_SIZE
    max_queue_bytes: int = DEFAULT_MAX_QUEUE_BYTES
    max_traces: int = DEFAULT_MAX_TRACES
    max_trace_bytes: int = DEFAULT_MAX_TRACE_BYTES
    max_buffer_bytes: int = DEFAULT_MAX_BUFFER_BYTES
    trace_ttl_s: float = DEFAULT_TRACE_TTL_S
    emit_span_event: bool = True
    emit_log_record: bool = True

    @classmethod
    def resolve(
        cls,
        *,
        max_queue_size: int | None = None,
        max_queue_bytes: int | None = None,
        max_traces: int | None = None,
        max_trace_bytes: int | None = None,
        max_buffer_bytes: int | None = None,
        trace_ttl_s: float | None = None,
        emit_span_event: bool | None = None,
        emit_log_record: bool | None = None,
    ) -> ProcessorSettings:
        """Explicit arguments (validated, ``ValueError`` if out of range) over environment twins."""
        return cls(
            max_queue_size=_default_max_queue_size()
            if max_queue_size is None
            else _positive("max_queue_size", max_queue_size),
            max_queue_bytes=_default_max_queue_bytes()
            if max_queue_bytes is None
            else _positive("max_queue_bytes", max_queue_bytes),
            max_traces=_default_max_traces() if max_traces is None else _positive("max_traces", max_traces),
            max_trace_bytes=_default_max_trace_bytes()
            if max_trace_bytes is None
            else _positive("max_trace_bytes", max_trace_bytes),
            max_buffer_bytes=_default_max_buffer_bytes()
            if max_buffer_bytes is None
            else _positive("max_buffer_bytes", max_buffer_bytes),
            trace_ttl_s=_default_trace_ttl_s()
            if trace_ttl_s is None
            else _positive("trace_ttl_s", trace_ttl_s),
            emit_span_event=_default_emit_span_event() if emit_span_event is None else emit_span_event,
            emit_log_record=_default_emit_log_record() if emit_log_record is None else emit_log_record,
        )
