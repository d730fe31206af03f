"""Neutral, SDK-free records that flow from adapters through pairing to scoring.

``SpanRecord``/``LogEventRecord`` are what a producer (the live SDK, an OTLP file) hands
in; ``SpanFacts``/``LogFacts`` are what a convention adapter reads off one of them; a
``Turn`` is one answer paired with its evidence, ready to score.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, TypeAlias, TypeVar

from otel_groundedness.scoring.evidence import Evidence

# What a piece of evidence is: ``Evidence.kind`` holds one of these; citations carry it as ``source_kind``.
EvidenceKind: TypeAlias = Literal["tool_result", "retrieval", "user_prompt"]
RETRIEVAL: EvidenceKind = "retrieval"

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _empty() -> Mapping[str, Any]:
    return _EMPTY


_R = TypeVar("_R")


class _Factory:
    """The default of a field with a factory: not given, so the factory's value is used."""

    def __repr__(self) -> str:
        return "<factory>"  # as a dataclass's signature shows it


_NOT_GIVEN = _Factory()


def _quick_init(cls: type[_R]) -> type[_R]:
    """Give a frozen, slotted dataclass an ``__init__`` that sets each field through its slot's own
    descriptor. The generated one calls ``object.__setattr__`` by field name, which looks the slot up
    every time: twice the cost, and the gateway builds a few dozen records a scored turn. Same
    parameters, in the same order, with the same defaults and factories."""
    if hasattr(cls, "__post_init__"):  # the generated ``__init__`` would call it; this one does not
        raise TypeError(f"{cls.__name__}: __post_init__ is not supported")
    namespace: dict[str, Any] = {"_NOT_GIVEN": _NOT_GIVEN}
    parameters, body = [], []
    for index, item in enumerate(dataclasses.fields(cls)):  # type: ignore[arg-type]
        if not item.init or item.kw_only:  # not used by the records; refused rather than mishandled
            raise TypeError(f"{cls.__name__}.{item.name}: only plain init fields are supported")
        namespace[f"_set{index}"] = cls.__dict__[item.name].__set__
        value = item.name
        if item.default is not dataclasses.MISSING:
            namespace[f"_default{index}"] = item.default
            parameters.append(f"{item.name}=_default{index}")
        elif item.default_factory is not dataclasses.MISSING:
            namespace[f"_factory{index}"] = item.default_factory
            parameters.append(f"{item.name}=_NOT_GIVEN")
            value = f"_factory{index}() if {item.name} is _NOT_GIVEN else {item.name}"
        else:
            parameters.append(item.name)
        body.append(f"    _set{index}(self, {value})\n")
    exec(f"def __init__(self, {', '.join(parameters)}):\n{''.join(body)}", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


@_quick_init
@dataclass(frozen=True, slots=True)
class SpanEventRecord:
    """A span event (name, attributes, timestamp)."""

    name: str
    attributes: Mapping[str, Any] = field(default_factory=_empty)
    timestamp_ns: int = 0


@_quick_init
@dataclass(frozen=True, slots=True)
class SpanRecord:
    """A finished span as plain data. Ids are the integer forms the SDK uses."""

    trace_id: int
    span_id: int
    parent_span_id: int | None
    name: str
    kind: str  # "INTERNAL", "CLIENT", "SERVER", "PRODUCER", "CONSUMER"
    start_time_ns: int
    end_time_ns: int
    attributes: Mapping[str, Any] = field(default_factory=_empty)
    events: tuple[SpanEventRecord, ...] = ()
    resource: Mapping[str, Any] = field(default_factory=_empty)
    scope: str = ""


@_quick_init
@dataclass(frozen=True, slots=True)
class LogEventRecord:
    """A log record that may carry GenAI content (event form), joined to spans by ids."""

    trace_id: int
    span_id: int
    event_name: str
    attributes: Mapping[str, Any] = field(default_factory=_empty)
    body: Any = None
    timestamp_ns: int = 0


@_quick_init
@dataclass(frozen=True, slots=True)
class TurnContext:
    """Low-cardinality descriptors of a turn, used for metric attributes and reports."""

    operation: str | None = None  # gen_ai.operation.name as normalised by the adapter
    provider: str | None = None
    request_model: str | None = None
    response_model: str | None = None
    agent_name: str | None = None
    response_id: str | None = None
    conversation_id: str | None = None


@_quick_init
@dataclass(frozen=True, slots=True)
class SpanFacts:
    """What one convention adapter found on one GenAI span.

    ``answer`` is the final completion text (``None`` when the output is a tool call or
    absent). ``evidence`` holds the tool results and retrieved documents this span carries for the
    *current* turn (after the last user message). ``is_tool`` marks an evidence-only span (a tool
    execution or a retrieval): it never holds an answer. ``is_agent`` marks a span whose end closes a subtree
    (``invoke_agent``, OpenInference AGENT, AI SDK root). ``tool_call_step`` is True when the
    output asks for tools (finish reason tool_calls/tool_call/tool-calls, or tool_call parts in
    place of a final answer): an intermediate step, not an answer. ``content_captured`` is False
    on a recognised GenAI span that carries no message content at all; ``content_truncated``
    is True when some JSON content could not be parsed whole.
    """

    convention: str
    context: TurnContext
    answer: str | None = None
    evidence: tuple[Evidence, ...] = ()
    user_prompt: str | None = None
    is_agent: bool = False
    is_tool: bool = False
    tool_call_step: bool = False
    content_captured: bool = True
    content_truncated: bool = False


@_quick_init
@dataclass(frozen=True, slots=True)
class LogFacts:
    """What an adapter found on one event-form log record (same meaning as ``SpanFacts``)."""

    convention: str
    context: TurnContext = field(default_factory=TurnContext)
    answer: str | None = None
    evidence: tuple[Evidence, ...] = ()
    user_prompt: str | None = None
    tool_call_step: bool = False  # a ``gen_ai.choice`` (or output message) that asks for tools
    content_truncated: bool = False


@_quick_init
@dataclass(frozen=True, slots=True)
class Turn:
    """One answer with the evidence and prompt that led to it: the unit that is scored."""

    trace_id: int
    span_id: int  # the span the result is attached to (the answer span)
    answer: str
    evidence: tuple[Evidence, ...]
    user_prompt: str | None
    context: TurnContext
    evidence_truncated: bool = False
    # The scorers (evaluator id, version, policy fingerprint) whose results the turn's spans already
    # carry: a tier in front, or another processor, scored it before.
    scored_by: frozenset[tuple[str, str, str]] = frozenset()
