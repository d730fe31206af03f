"""What a producer module declares: the keys that gate its spans, which spans and log records it
claims, how it reads them, and where it stands in the dispatch order (``registry`` collects them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from otel_groundedness.records import LogEventRecord, LogFacts, SpanFacts, SpanRecord

SpanReader = Callable[[SpanRecord], SpanFacts | None]
LogReader = Callable[[LogEventRecord], LogFacts | None]
Claims = Callable[[Mapping[str, Any]], bool]


def _claims_nothing(attributes: Mapping[str, Any]) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Producer:
    """One producer family.

    ``gate_keys``: a span carrying any of them may be this family's; the hot-path gate is their union.
    ``claims``: the cheap test (membership of ``gate_keys`` only, no parsing) that picks the spans
    ``read_span`` is offered. ``order``: lower is tried first; families whose markers are most
    specific go first, because their spans may also carry generic ``gen_ai.*`` keys.
    ``log_events``: the event names of the log records ``read_log`` takes.
    """

    name: str
    order: int
    gate_keys: frozenset[str] = frozenset()
    claims: Claims = _claims_nothing
    read_span: SpanReader | None = None
    log_events: frozenset[str] = frozenset()
    read_log: LogReader | None = None


def any_key(keys: frozenset[str]) -> Claims:
    """The usual claim: the span carries at least one of ``keys``."""

    def claims(attributes: Mapping[str, Any]) -> bool:
        return any(key in attributes for key in keys)

    return claims
