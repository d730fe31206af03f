"""What a producer module declares: the keys that gate its spans, which spans and log records it
claims, how it reads them, and where it stands in the dispatch order (``registry`` collects them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from otel_groundedness.records import LogEventRecord, LogFacts, SpanFacts, SpanRecord

SpanReader = Callable[[SpanRecord], SpanFacts | None]
LogReader = Callable[[LogEventRecord], LogFacts | None]


@dataclass(frozen=True, slots=True)
class Producer:
    """One producer family.

    ``gate_keys``: a span carrying any of them is claimed by this family and offered to ``read_span``
    (membership only, no parsing); the hot-path gate is their union. ``order``: lower is tried first;
    families whose markers are most specific go first, because their spans may also carry generic
    ``gen_ai.*`` keys.
    ``log_events``: the event names of the log records ``read_log`` takes.
    ``agent_span_names``: names of spans that open an agent's turn (beyond semconv's
    ``invoke_agent {name}``): answers that end inside such a span wait for it to end.
    """

    name: str
    order: int
    gate_keys: frozenset[str] = frozenset()
    read_span: SpanReader | None = None
    log_events: frozenset[str] = frozenset()
    read_log: LogReader | None = None
    agent_span_names: frozenset[str] = frozenset()
