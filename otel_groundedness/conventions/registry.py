"""The producer registry: every producer module's declaration, in dispatch order, and what is built
from them (the hot-path gate keys, the span readers' order, the log readers by event name).

Adding a producer is one module with a ``PRODUCER`` declaration, listed here, plus its tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_groundedness.conventions import (
    adk,
    crewai,
    langfuse,
    langsmith,
    mcp,
    mlflow,
    openinference,
    openllmetry,
    pydantic_ai,
    semconv,
    semconv_events,
    vercel_ai,
)
from otel_groundedness.conventions._producer import LogReader, Producer

PRODUCERS: tuple[Producer, ...] = tuple(
    sorted(
        (
            openinference.PRODUCER,
            vercel_ai.PRODUCER,
            langsmith.PRODUCER,
            langfuse.PRODUCER,
            mlflow.PRODUCER,
            pydantic_ai.PRODUCER,
            adk.PRODUCER,
            mcp.PRODUCER,
            crewai.PRODUCER,
            openllmetry.TRACELOOP_PRODUCER,
            openllmetry.INDEXED_PRODUCER,
            semconv.PRODUCER,
            semconv_events.PRODUCER,
        ),
        key=lambda producer: producer.order,
    )
)
# A span with none of these keys is no producer's: the processor forwards it without queueing.
GATE_KEYS: frozenset[str] = frozenset().union(*(producer.gate_keys for producer in PRODUCERS))
# Spans, by exact name, that open an agent's turn (semconv's ``invoke_agent`` prefix is in core.intake).
AGENT_SPAN_NAMES: frozenset[str] = frozenset().union(*(producer.agent_span_names for producer in PRODUCERS))
SPAN_PRODUCERS: tuple[Producer, ...] = tuple(p for p in PRODUCERS if p.read_span is not None)
LOG_READERS: Mapping[str, LogReader] = {
    event: producer.read_log
    for producer in reversed(PRODUCERS)  # the first producer in order wins an event name
    if producer.read_log is not None
    for event in producer.log_events
}


def claimants(attributes: Mapping[str, Any]) -> list[Producer]:
    """The span producers that claim these attributes (carry one of their gate keys), in dispatch order."""
    present = GATE_KEYS.intersection(attributes)  # one pass over the span's keys
    if not present:
        return []
    return [producer for producer in SPAN_PRODUCERS if not producer.gate_keys.isdisjoint(present)]
