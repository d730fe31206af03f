"""Which records the core takes, decided by name alone (cheap enough for an application's thread)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard

from otel_groundedness.conventions import has_gate_key, is_genai_span
from otel_groundedness.conventions.registry import AGENT_SPAN_NAMES
from otel_groundedness.telemetry import names

_AGENT_SPAN_PREFIX = "invoke_agent"
_AGENT_SPAN_STARTS = (_AGENT_SPAN_PREFIX, *sorted(AGENT_SPAN_NAMES))
_GENAI_EVENT_PREFIX = "gen_ai."


def opens_agent(span_name: str) -> bool:
    """Whether a span is an agent whose end closes a subtree, decided from its name.

    The semconv name ``invoke_agent {name}`` is used by util-genai, Pydantic AI and the AI SDK, and
    it is known when the span starts (util-genai sets no attributes before then). An agent not
    recognised here still works: its answers are scored as they end and its own answer is
    deduplicated against them. Producers declare other agent span names (the AI SDK's legacy roots).
    """
    # One prefix test rejects the usual span; only a candidate pays for the exact-name check.
    return span_name.startswith(_AGENT_SPAN_STARTS) and (
        span_name.startswith(_AGENT_SPAN_PREFIX) or span_name in AGENT_SPAN_NAMES
    )


def takes_span(attributes: Mapping[str, Any] | None, span_name: str) -> bool:
    """Whether an ended span goes to the core: it may carry GenAI content, or it opens an agent (an
    agent recognised by name must close its turn even without GenAI attributes). Every other span is
    forwarded untouched by its host."""
    return is_genai_span(attributes) or opens_agent(span_name)


def takes_span_keys(keys: Iterable[str], span_name: str) -> bool:
    """``takes_span`` from a span's attribute keys read one at a time (the gateway's protobuf spans):
    no mapping is built for the usual span."""
    return has_gate_key(keys) or opens_agent(span_name)


def is_genai_input(event_name: object) -> TypeGuard[str]:
    """A GenAI content event (``gen_ai.*``), never one of our own evaluation results."""
    return (
        isinstance(event_name, str)
        and event_name.startswith(_GENAI_EVENT_PREFIX)
        and event_name != names.EVENT_EVALUATION_RESULT
    )
