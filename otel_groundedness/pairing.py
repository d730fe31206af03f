"""Per-trace pairing of answers with the evidence that led to them, producing ``Turn``s.

Pure and SDK-free: callers hand in neutral records with the facts an adapter read off them and an
opaque ``handle`` (the live span); the buffer says when each handle may leave and whether a turn
should be scored onto it. Time comes from an injected monotonic clock.

Rules (docs/processor.md has the long form):
- Evidence (tool results, event-form tool messages, a chat span's own tool inputs) accumulates per
  trace, joined by trace id and deduplicated by tool-call id; parent links are not trusted.
- A span with a final answer is released at once as a standalone turn, unless an agent span that
  started no later than it is still open in the trace: then it is held until that agent ends.
- A span whose output asks for tools is an intermediate step: released unscored, with no skip.
- An agent span ending claims the held answers it contains in time (ends stamped up to 1 ms after
  its own count as inside) and scores one turn: its own answer if it has one, else the last claimed
  answer. The score goes on the most specific span carrying that text (the chat span rather than
  the agent); the other claimed spans leave unscored.
- One answer is scored at most once per trace (same ``gen_ai.response.id`` or same text), remembered
  by digest.

Bounds: every byte the buffer keeps is counted against ``max_trace_bytes`` and ``max_buffer_bytes``
(evidence, prompts, event-form content, held answers with their whole span, answer digests), and
sizes are measured without recursion. A failure inside any call drops that call's trace and
releases every handle it held, unscored (``error``), so no exception can strand a span.
"""

from __future__ import annotations

import dataclasses
import operator
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeAlias, TypeVar

from otel_groundedness.payload import (
    DIGEST_BYTES,
    estimate_bytes,
    fingerprint,
    text_fingerprint,
)
from otel_groundedness.records import LogEventRecord, LogFacts, SpanFacts, SpanRecord, Turn, TurnContext
from otel_groundedness.scoring.evidence import Evidence
from otel_groundedness.telemetry.evaluation import ScorerKey, stamped_scorer

H = TypeVar("H")

SkipReason: TypeAlias = Literal[
    "no_answer",
    "content_not_captured",
    "malformed",
    "duplicate",
    "evicted",
    "not_final",
    "error",
    "already_scored",
]
EvictionReason: TypeAlias = Literal["max_traces", "max_bytes", "ttl"]

# How far a span's end may be stamped after its agent's and still be inside it. OTel JS takes a
# span's start from Date.now() (whole milliseconds) and its end as start plus measured duration, so
# the stamped ends of a child and its parent can be out of order by up to 1 ms.
END_STAMP_TOLERANCE_NS = 1_000_000

_UNREAD_AGENT = SpanFacts(convention="unread", context=TurnContext(), is_agent=True)
# Fixed per-item charge so that many small items still count against the byte budget.
# The context's values as a tuple, read in C: ``dataclasses.astuple`` deep-copies (4% of gateway CPU).
_CONTEXT_VALUES = operator.attrgetter(*(field.name for field in dataclasses.fields(TurnContext)))
_NO_CONTEXT = TurnContext()
_ITEM_OVERHEAD_BYTES = 64
# A remembered answer digest: the digest plus its set entry.
_DIGEST_ENTRY_BYTES = DIGEST_BYTES + 48


@dataclass(frozen=True, slots=True)
class PairingLimits:
    """Bounds of the buffer: traces kept, estimated bytes per trace, idle seconds per trace, and
    estimated bytes in all (least recently used traces are evicted to stay under it)."""

    max_traces: int
    max_trace_bytes: int
    trace_ttl_s: float
    max_buffer_bytes: int = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Release(Generic[H]):
    """A handle the buffer lets go: score ``turn`` onto it, or forward it (``skip`` says why unscored)."""

    handle: H
    turn: Turn | None = None
    skip: SkipReason | None = None


@dataclass(slots=True)
class Decisions(Generic[H]):
    """What one buffer call decided: handles to release and traces evicted with pending work.

    ``failed`` is True when the call hit an internal error: its trace was dropped and every handle
    it held is among ``releases``, unscored.
    """

    releases: list[Release[H]] = field(default_factory=list)
    evictions: list[EvictionReason] = field(default_factory=list)
    failed: bool = False

    def extend(self, other: Decisions[H]) -> None:
        self.releases.extend(other.releases)
        self.evictions.extend(other.evictions)
        self.failed = self.failed or other.failed

    def releases_handle(self, handle: H) -> bool:
        return any(release.handle is handle for release in self.releases)


@dataclass(slots=True)
class _Answer(Generic[H]):
    """A span carrying a final answer, held until its agent ends."""

    handle: H
    span_id: int
    start_ns: int
    end_ns: int
    text: str
    context: TurnContext
    truncated: bool
    size: int = 0  # bytes charged while held: the whole span (the handle) plus the answer text
    scored_by: ScorerKey | None = None  # the result the span already carries, if any

    @classmethod
    def of(
        cls, record: SpanRecord, handle: H, text: str, context: TurnContext, truncated: bool
    ) -> _Answer[H]:
        return cls(
            handle,
            record.span_id,
            record.start_time_ns,
            record.end_time_ns,
            text,
            context,
            truncated,
            scored_by=stamped_scorer(record.attributes),
        )

    def within(self, start_ns: int, end_ns: int) -> bool:
        """Whether this span ran inside [start_ns, end_ns], allowing for stamped ends out of order."""
        return start_ns <= self.start_ns <= end_ns and self.end_ns <= end_ns + END_STAMP_TOLERANCE_NS

    def held(self, record: SpanRecord) -> _Answer[H]:
        self.size = _record_bytes(record) + len(self.text) + _ITEM_OVERHEAD_BYTES
        return self


@dataclass(slots=True)
class _LogContent:
    """Event-form content logged against one span, waiting for that span to end."""

    answer: str | None = None
    user_prompt: str | None = None
    context: TurnContext | None = None
    tool_call_step: bool = False
    truncated: bool = False
    size: int = 0


@dataclass(slots=True)
class _TraceState(Generic[H]):
    trace_id: int
    last_seen: float
    evidence: dict[tuple[Any, ...], Evidence] = field(default_factory=dict)
    evidence_truncated: bool = False
    user_prompt: str | None = None
    logs: dict[int, _LogContent] = field(default_factory=dict)
    held: list[_Answer[H]] = field(default_factory=list)
    open_agents: dict[int, int] = field(default_factory=dict)  # span id -> start time (ns)
    scored: set[bytes] = field(default_factory=set)  # digests of answers and response ids scored
    size: int = 0
    counted: int = 0  # the part of ``size`` already added to the buffer-wide total

    @property
    def pending(self) -> bool:
        return bool(self.held or self.open_agents)


def _record_bytes(record: SpanRecord) -> int:
    """What a span held for its agent keeps alive: its attributes and events."""
    size = estimate_bytes(record.attributes) + len(record.name)
    for event in record.events:
        size += len(event.name) + estimate_bytes(event.attributes) + _ITEM_OVERHEAD_BYTES
    return size


def _evidence_key(item: Evidence) -> tuple[Any, ...]:
    source = item.source_id.strip() if item.source_id else ""
    if source:
        return ("id", item.kind, fingerprint(source))
    return ("content", item.kind, fingerprint(item.content))


def _answer_key(text: str) -> bytes:
    return b"t" + text_fingerprint(text)


def _merge_context(primary: TurnContext, fallback: TurnContext | None) -> TurnContext:
    if fallback is None:
        return primary
    return TurnContext(
        operation=primary.operation or fallback.operation,
        provider=primary.provider or fallback.provider,
        request_model=primary.request_model or fallback.request_model,
        response_model=primary.response_model or fallback.response_model,
        agent_name=primary.agent_name or fallback.agent_name,
        response_id=primary.response_id or fallback.response_id,
        conversation_id=primary.conversation_id or fallback.conversation_id,
    )


class PairingBuffer(Generic[H]):
    """Bounded per-trace buffer turning span and log facts into scoreable ``Turn``s.

    Not thread-safe: one worker thread owns it. Every handle passed to ``add_span`` comes back
    exactly once in some ``Release`` (immediately, when its turn completes, on eviction, after an
    internal error, or from ``drain``), except after ``reset``. No call raises.
    """

    def __init__(self, limits: PairingLimits, clock: Callable[[], float]) -> None:
        self._limits = limits
        self._clock = clock
        self._traces: OrderedDict[int, _TraceState[H]] = OrderedDict()
        self._total_bytes = 0

    @property
    def trace_count(self) -> int:
        return len(self._traces)

    @property
    def byte_count(self) -> int:
        """Bytes the buffer holds, as charged against ``max_buffer_bytes``."""
        return self._total_bytes

    def agent_started(self, trace_id: int, span_id: int, start_ns: int) -> Decisions[H]:
        """Note an open agent span: answers that start after it wait for its end."""
        decisions: Decisions[H] = Decisions()
        held = self._held_handles(trace_id)
        try:
            state = self._state(trace_id, decisions)
            state.open_agents[span_id] = start_ns
            state.size += _ITEM_OVERHEAD_BYTES
            self._enforce_bytes(trace_id, state, decisions)
        except Exception:
            self._recover(trace_id, held, decisions)
        return decisions

    def agent_lost(self, trace_id: int, span_id: int, end_ns: int) -> Decisions[H]:
        """An open agent ended without reaching the buffer (dropped): score what it contained alone."""
        decisions: Decisions[H] = Decisions()
        held = self._held_handles(trace_id)
        try:
            self._agent_lost(trace_id, span_id, end_ns, decisions)
        except Exception:
            self._recover(trace_id, held, decisions)
        return decisions

    def add_log(self, record: LogEventRecord, facts: LogFacts) -> Decisions[H]:
        """Take event-form content: evidence joins the trace, answers wait for their span."""
        decisions: Decisions[H] = Decisions()
        held = self._held_handles(record.trace_id)
        try:
            self._add_log(record, facts, decisions)
        except Exception:
            self._recover(record.trace_id, held, decisions)
        return decisions

    def add_span(self, record: SpanRecord, facts: SpanFacts | None, handle: H) -> Decisions[H]:
        """Take one ended span; its handle is released now or held for its agent.

        ``facts`` is None for a span no adapter could read: it is released as is, unless it is an
        open agent (recognised at start by name), whose end still closes its turn.
        """
        decisions: Decisions[H] = Decisions()
        held = self._held_handles(record.trace_id)
        held.append(handle)
        try:
            self._add_span(record, facts, handle, decisions)
        except Exception:
            self._recover(record.trace_id, held, decisions)
        return decisions

    def expire(self) -> Decisions[H]:
        """Drop traces idle for longer than the TTL; held answers leave unscored (``evicted``)."""
        decisions: Decisions[H] = Decisions()
        deadline = self._clock() - self._limits.trace_ttl_s
        while self._traces:
            trace_id, state = next(iter(self._traces.items()))
            if state.last_seen > deadline:
                break
            self._evict(trace_id, "ttl", decisions)
        return decisions

    def drain(self) -> list[Release[H]]:
        """Release everything (shutdown): each held answer is scored as a standalone turn."""
        releases: list[Release[H]] = []
        for state in self._traces.values():
            for held in state.held:
                try:
                    releases.append(self._standalone(state, held))
                except Exception:
                    releases.append(Release(held.handle, skip="error"))
        self._traces.clear()
        self._total_bytes = 0
        return releases

    def reset(self) -> None:
        """Forget all state without releasing (a forked child must not forward the parent's spans)."""
        self._traces.clear()
        self._total_bytes = 0

    # --- failure containment ---

    def _held_handles(self, trace_id: int) -> list[H]:
        """The handles a call on ``trace_id`` may move: snapshotted so a failure can still release them."""
        state = self._traces.get(trace_id)
        # Usually none: no comprehension is run for an empty list (every call snapshots).
        return [held.handle for held in state.held] if state is not None and state.held else []

    def _recover(self, trace_id: int, handles: list[H], decisions: Decisions[H]) -> None:
        """After an internal error: drop the trace and release each handle not released yet, unscored."""
        decisions.failed = True
        state = self._traces.pop(trace_id, None)
        if state is not None:
            self._total_bytes -= state.counted
        for handle in handles:
            if not decisions.releases_handle(handle):
                decisions.releases.append(Release(handle, skip="error"))

    # --- the calls' bodies ---

    def _agent_lost(self, trace_id: int, span_id: int, end_ns: int, decisions: Decisions[H]) -> None:
        state = self._traces.get(trace_id)
        if state is None or span_id not in state.open_agents:
            return
        start_ns = self._close_open_agent(state, span_id)
        contained = [held for held in state.held if held.within(start_ns, end_ns)]
        if not state.open_agents:
            contained = state.held
        self._unhold(state, contained)
        decisions.releases.extend(self._standalone(state, held) for held in contained)
        self._enforce_bytes(trace_id, state, decisions)

    def _add_log(self, record: LogEventRecord, facts: LogFacts, decisions: Decisions[H]) -> None:
        state = self._state(record.trace_id, decisions)
        self._add_evidence(state, facts.evidence, facts.content_truncated)
        if facts.user_prompt:
            self._set_prompt(state, facts.user_prompt)
        if (
            facts.answer is not None
            or facts.user_prompt
            or facts.tool_call_step
            or facts.context != _NO_CONTEXT
        ):
            content = state.logs.get(record.span_id)
            if content is None:
                content = state.logs[record.span_id] = _LogContent()
            before = content.size
            if facts.answer is not None:
                content.answer = facts.answer
            content.user_prompt = facts.user_prompt or content.user_prompt
            content.context = _merge_context(facts.context, content.context)
            content.tool_call_step = content.tool_call_step or facts.tool_call_step
            content.truncated = content.truncated or facts.content_truncated
            content.size = (
                _ITEM_OVERHEAD_BYTES
                + len(content.answer or "")
                + len(content.user_prompt or "")
                + estimate_bytes(_CONTEXT_VALUES(content.context))
            )
            state.size += content.size - before
        self._enforce_bytes(record.trace_id, state, decisions)

    def _add_span(
        self, record: SpanRecord, facts: SpanFacts | None, handle: H, decisions: Decisions[H]
    ) -> None:
        if facts is None:
            known = self._traces.get(record.trace_id)
            if known is None or record.span_id not in known.open_agents:
                decisions.releases.append(Release(handle))
                return
            facts = _UNREAD_AGENT
        state = self._state(record.trace_id, decisions)
        logged = state.logs.pop(record.span_id, None)
        if logged is not None:
            state.size -= logged.size
        answer = facts.answer if facts.answer is not None else (logged.answer if logged else None)
        context = _merge_context(facts.context, logged.context if logged else None)
        truncated = facts.content_truncated or (logged.truncated if logged else False)
        tool_call_step = facts.tool_call_step or (logged.tool_call_step if logged else False)
        self._add_evidence(state, facts.evidence, facts.content_truncated)
        prompt = facts.user_prompt or (logged.user_prompt if logged else None)
        if prompt:
            self._set_prompt(state, prompt)

        if facts.is_agent or record.span_id in state.open_agents:
            self._close_open_agent(state, record.span_id)
            agent = _Answer.of(record, handle, "", context, truncated)
            captured = facts.content_captured or logged is not None
            decisions.releases.extend(self._close_agent(state, agent, answer, captured))
        elif answer is not None:
            held = _Answer.of(record, handle, answer, context, truncated)
            if any(start <= record.start_time_ns for start in state.open_agents.values()):
                state.held.append(held.held(record))
                state.size += held.size
            else:
                decisions.releases.append(self._standalone(state, held))
        elif facts.is_tool or tool_call_step:
            decisions.releases.append(Release(handle))
        elif not facts.content_captured and logged is None:
            decisions.releases.append(Release(handle, skip="content_not_captured"))
        elif truncated:
            decisions.releases.append(Release(handle, skip="malformed"))
        else:
            decisions.releases.append(Release(handle, skip="no_answer"))

        if not state.open_agents and state.held:
            held_now = self._unhold(state, state.held)
            decisions.releases.extend(self._standalone(state, held) for held in held_now)
        self._enforce_bytes(record.trace_id, state, decisions)

    # --- internals ---

    def _state(self, trace_id: int, decisions: Decisions[H]) -> _TraceState[H]:
        now = self._clock()
        state = self._traces.get(trace_id)
        if state is None:
            while len(self._traces) >= self._limits.max_traces:
                self._evict(next(iter(self._traces)), "max_traces", decisions)
            state = _TraceState(trace_id=trace_id, last_seen=now)
            self._traces[trace_id] = state
        else:
            state.last_seen = now
            self._traces.move_to_end(trace_id)
        return state

    def _evict(self, trace_id: int, reason: EvictionReason, decisions: Decisions[H]) -> None:
        state = self._traces[trace_id]
        releases = [Release(held.handle, skip="evicted") for held in state.held]
        del self._traces[trace_id]
        self._total_bytes -= state.counted
        # Idle evidence is retired silently; only traces with unfinished work count as evictions.
        if state.pending:
            decisions.evictions.append(reason)
        decisions.releases.extend(releases)

    def _enforce_bytes(self, trace_id: int, state: _TraceState[H], decisions: Decisions[H]) -> None:
        """Apply both byte limits after a call changed ``state``: the trace's own, then the buffer's.

        Every public call funnels through here, so this is where the trace's size is folded into
        the buffer-wide total; the least recently used traces go first when the total is too high.
        """
        if trace_id not in self._traces:
            return
        self._total_bytes += state.size - state.counted
        state.counted = state.size
        if state.size > self._limits.max_trace_bytes:
            self._evict(trace_id, "max_bytes", decisions)
        while self._total_bytes > self._limits.max_buffer_bytes and self._traces:
            self._evict(next(iter(self._traces)), "max_bytes", decisions)

    def _add_evidence(self, state: _TraceState[H], evidence: Iterable[Evidence], truncated: bool) -> None:
        state.evidence_truncated = state.evidence_truncated or truncated
        for item in evidence:
            key = _evidence_key(item)
            if key not in state.evidence:
                state.evidence[key] = item
                state.size += estimate_bytes(item.content) + _ITEM_OVERHEAD_BYTES

    def _set_prompt(self, state: _TraceState[H], prompt: str) -> None:
        state.size += len(prompt) - len(state.user_prompt or "")
        state.user_prompt = prompt

    def _unhold(self, state: _TraceState[H], answers: list[_Answer[H]]) -> list[_Answer[H]]:
        """Remove ``answers`` from the held list (and the byte count); returns them."""
        taken = list(answers)
        state.held = [held for held in state.held if all(held is not other for other in taken)]
        state.size -= sum(held.size for held in taken)
        return taken

    def _close_open_agent(self, state: _TraceState[H], span_id: int) -> int:
        """Forget an open agent; returns its start time (0 if it was not known)."""
        if span_id not in state.open_agents:
            return 0
        state.size -= _ITEM_OVERHEAD_BYTES
        return state.open_agents.pop(span_id)

    def _turn(
        self,
        state: _TraceState[H],
        answer: _Answer[H],
        text: str,
        context: TurnContext,
        spans: Iterable[_Answer[H]] = (),
    ) -> Turn:
        """``spans``: the turn's spans besides ``answer``; a result any of them carries counts."""
        scored_by = frozenset(span.scored_by for span in (answer, *spans) if span.scored_by is not None)
        return Turn(
            trace_id=state.trace_id,
            span_id=answer.span_id,
            answer=text,
            evidence=tuple(state.evidence.values()),
            user_prompt=state.user_prompt,
            context=context,
            evidence_truncated=state.evidence_truncated or answer.truncated,
            scored_by=scored_by,
        )

    def _claim(self, state: _TraceState[H], keys: list[bytes]) -> bool:
        """Record the answer keys as scored; False if any was scored before in this trace."""
        if any(key in state.scored for key in keys):
            return False
        added = [key for key in keys if key not in state.scored]
        state.scored.update(added)
        state.size += _DIGEST_ENTRY_BYTES * len(added)
        return True

    def _keys(self, answer_key: bytes, context: TurnContext) -> list[bytes]:
        keys = [answer_key]
        if context.response_id:
            keys.append(b"r" + text_fingerprint(context.response_id))
        return keys

    def _standalone(self, state: _TraceState[H], held: _Answer[H]) -> Release[H]:
        if not self._claim(state, self._keys(_answer_key(held.text), held.context)):
            return Release(held.handle, skip="duplicate")
        return Release(held.handle, turn=self._turn(state, held, held.text, held.context))

    def _close_agent(
        self, state: _TraceState[H], agent: _Answer[H], own_answer: str | None, captured: bool
    ) -> list[Release[H]]:
        contained = [held for held in state.held if held.within(agent.start_ns, agent.end_ns)]
        self._unhold(state, contained)
        contained.sort(key=lambda held: held.end_ns)
        if own_answer is None and not contained:
            if state.scored:
                # An outer agent or workflow with no output of its own, whose turn was already
                # scored on an inner span (its answers were not held: its start went unseen).
                return [Release(agent.handle)]
            return [Release(agent.handle, skip="no_answer" if captured else "content_not_captured")]

        text = own_answer if own_answer is not None else contained[-1].text
        key = _answer_key(text)

        def same(held: _Answer[H]) -> bool:
            # Equal texts have equal keys: the usual answer is not fingerprinted again.
            return held.text == text or _answer_key(held.text) == key

        target = next((held for held in reversed(contained) if same(held)), agent)
        releases: list[Release[H]] = []
        for held in contained:
            if held is not target:
                releases.append(Release(held.handle, skip="duplicate" if same(held) else "not_final"))
        context = _merge_context(target.context, agent.context)
        if target is not agent:
            releases.append(Release(agent.handle, skip="duplicate" if own_answer is not None else None))
        keys = self._keys(key, context)
        if self._claim(state, keys):
            turn = self._turn(state, target, text, context, [agent, *contained])
            releases.append(Release(target.handle, turn=turn))
        else:
            releases.append(Release(target.handle, skip="duplicate"))
        return releases
