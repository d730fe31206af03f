"""The pairing buffer: which answer is scored with which evidence, when, and what is skipped."""

from __future__ import annotations

from otel_groundedness.pairing import Decisions, PairingBuffer, PairingLimits, Release
from otel_groundedness.records import LogEventRecord, LogFacts, SpanFacts, SpanRecord, TurnContext
from otel_groundedness.scoring.evidence import Evidence

TRACE = 0xABC


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_buffer(
    clock: FakeClock | None = None,
    *,
    max_traces: int = 16,
    max_trace_bytes: int = 1 << 20,
    ttl: float = 60.0,
    max_buffer_bytes: int = 1 << 24,
) -> PairingBuffer[str]:
    limits = PairingLimits(max_traces, max_trace_bytes, ttl, max_buffer_bytes)
    return PairingBuffer(limits, clock or FakeClock())


def span(span_id: int, start: int, end: int, *, trace_id: int = TRACE, name: str = "chat") -> SpanRecord:
    return SpanRecord(trace_id, span_id, None, name, "CLIENT", start, end)


def chat(answer: str | None, *evidence: Evidence, response_id: str | None = None, **kw: object) -> SpanFacts:
    context = TurnContext(operation="chat", provider="openai", response_id=response_id)
    return SpanFacts("semconv", context, answer=answer, evidence=evidence, **kw)  # type: ignore[arg-type]


def agent(answer: str | None = None) -> SpanFacts:
    return SpanFacts(
        "semconv",
        TurnContext(operation="invoke_agent", agent_name="invoice-agent"),
        answer=answer,
        is_agent=True,
    )


def tool(content: str, call_id: str) -> SpanFacts:
    return SpanFacts(
        "semconv", TurnContext(operation="execute_tool"), evidence=(Evidence(content, call_id),), is_tool=True
    )


def by_handle(decisions: Decisions[str]) -> dict[str, Release[str]]:
    return {release.handle: release for release in decisions.releases}


INVOICE = Evidence('{"invoice_id": "INV-2210", "total": 1243500}', "call_1", name="get_invoice")
ANSWER = "Invoice INV-2210 totals $1,243,500."


def test_self_contained_chat_span_is_scored_when_it_ends() -> None:
    buffer = make_buffer()
    decisions = buffer.add_span(span(1, 0, 10), chat(ANSWER, INVOICE, user_prompt="How much?"), "chat")
    (release,) = decisions.releases
    assert release.handle == "chat" and release.skip is None
    assert release.turn is not None
    assert release.turn.answer == ANSWER
    assert release.turn.evidence == (INVOICE,)
    assert release.turn.user_prompt == "How much?"
    assert (release.turn.trace_id, release.turn.span_id) == (TRACE, 1)


def test_tool_spans_pass_through_and_their_results_become_trace_evidence() -> None:
    buffer = make_buffer()
    tool_release = buffer.add_span(span(2, 0, 5), tool('{"total": 1243500}', " call_1 "), "tool").releases
    assert tool_release == [Release("tool")]
    # The same call id re-sent in the chat input is the same evidence, kept once.
    decisions = buffer.add_span(
        span(3, 6, 10), chat(ANSWER, Evidence('{"total": 1243500}', "call_1")), "chat"
    )
    (release,) = decisions.releases
    assert release.turn is not None and len(release.turn.evidence) == 1


def test_answer_inside_an_open_agent_waits_and_is_scored_once_on_the_chat_span() -> None:
    buffer = make_buffer()
    assert buffer.agent_started(TRACE, 100, 0).releases == []
    assert buffer.add_span(span(1, 1, 2), chat(None, tool_call_step=True), "first-chat").releases == [
        Release("first-chat")
    ]
    assert buffer.add_span(span(2, 3, 4), tool('{"total": 1243500}', "call_1"), "tool").releases == [
        Release("tool")
    ]
    assert buffer.add_span(span(3, 5, 6), chat(ANSWER), "final-chat").releases == []

    releases = by_handle(buffer.add_span(span(100, 0, 10, name="invoke_agent"), agent(ANSWER), "agent"))
    assert set(releases) == {"final-chat", "agent"}
    scored = releases["final-chat"].turn
    assert scored is not None and scored.span_id == 3
    assert [item.content for item in scored.evidence] == ['{"total": 1243500}']
    assert scored.context.agent_name == "invoice-agent"  # filled in from the agent span
    assert releases["agent"] == Release("agent", skip="duplicate")


def test_agent_scores_its_last_answer_and_leaves_earlier_ones_unscored() -> None:
    buffer = make_buffer()
    buffer.agent_started(TRACE, 100, 0)
    buffer.add_span(span(1, 1, 2), chat("Draft: $1,000."), "draft")
    buffer.add_span(span(2, 3, 4), chat(ANSWER), "final")
    releases = by_handle(buffer.add_span(span(100, 0, 10), agent(), "agent"))
    assert releases["draft"].skip == "not_final" and releases["draft"].turn is None
    assert releases["final"].turn is not None and releases["final"].turn.answer == ANSWER
    assert releases["agent"] == Release("agent")  # no answer of its own: forwarded, not counted


def test_agent_with_a_different_answer_is_scored_on_the_agent_span() -> None:
    buffer = make_buffer()
    buffer.agent_started(TRACE, 100, 0)
    buffer.add_span(span(1, 1, 2), chat("Raw model text."), "chat")
    releases = by_handle(buffer.add_span(span(100, 0, 10), agent(ANSWER), "agent"))
    assert releases["chat"].skip == "not_final"
    assert releases["agent"].turn is not None and releases["agent"].turn.answer == ANSWER


def test_agent_only_answer_uses_evidence_from_the_whole_trace() -> None:
    buffer = make_buffer()
    buffer.add_span(span(2, 1, 2), tool('{"total": 1243500}', "call_1"), "tool")
    (release,) = buffer.add_span(span(100, 0, 10), agent(ANSWER), "agent").releases
    assert release.turn is not None and release.turn.evidence[0].source_id == "call_1"


def test_agent_without_any_answer_is_a_no_answer_skip() -> None:
    buffer = make_buffer()
    buffer.agent_started(TRACE, 100, 0)
    assert buffer.add_span(span(100, 0, 10), agent(), "agent").releases == [
        Release("agent", skip="no_answer")
    ]


def test_nested_agents_score_the_shared_answer_once() -> None:
    buffer = make_buffer()
    buffer.agent_started(TRACE, 100, 0)
    buffer.agent_started(TRACE, 200, 1)
    buffer.add_span(span(1, 2, 3), chat(ANSWER), "chat")
    inner = by_handle(buffer.add_span(span(200, 1, 5), agent(ANSWER), "inner"))
    assert inner["chat"].turn is not None and inner["inner"].skip == "duplicate"
    outer = buffer.add_span(span(100, 0, 10), agent(ANSWER), "outer").releases
    assert outer == [Release("outer", skip="duplicate")]


def test_same_response_id_from_two_instrumentations_is_scored_once() -> None:
    buffer = make_buffer()
    first = buffer.add_span(span(1, 0, 10), chat(ANSWER, INVOICE, response_id="chatcmpl-1"), "official")
    second = buffer.add_span(
        span(2, 0, 10), chat(ANSWER + " ", INVOICE, response_id="chatcmpl-1"), "openllmetry"
    )
    assert first.releases[0].turn is not None
    assert second.releases == [Release("openllmetry", skip="duplicate")]


def test_skip_reasons_for_unreadable_spans() -> None:
    buffer = make_buffer()
    no_content = buffer.add_span(span(1, 0, 1), chat(None, content_captured=False), "a").releases
    truncated = buffer.add_span(span(2, 0, 1), chat(None, content_truncated=True), "b").releases
    empty = buffer.add_span(span(3, 0, 1), chat(None), "c").releases
    assert no_content == [Release("a", skip="content_not_captured")]
    assert truncated == [Release("b", skip="malformed")]
    assert empty == [Release("c", skip="no_answer")]


def test_tool_call_steps_are_released_without_a_skip() -> None:
    buffer = make_buffer()
    step = buffer.add_span(span(1, 0, 1), chat(None, INVOICE, tool_call_step=True), "step").releases
    assert step == [Release("step")]
    # The step's tool inputs still count as evidence for the answer that follows.
    (release,) = buffer.add_span(span(2, 2, 3), chat(ANSWER), "final").releases
    assert release.turn is not None and release.turn.evidence == (INVOICE,)


def test_event_form_tool_call_choice_makes_a_content_free_span_a_step() -> None:
    buffer = make_buffer()
    choice = LogFacts("semconv_events", tool_call_step=True)
    assert buffer.add_log(LogEventRecord(TRACE, 1, "gen_ai.choice"), choice).releases == []
    released = buffer.add_span(span(1, 0, 1), chat(None, content_captured=False), "step").releases
    assert released == [Release("step")]
    # Without the choice the same content-free span is an honest content_not_captured skip.
    unlogged = buffer.add_span(span(2, 0, 1), chat(None, content_captured=False), "bare").releases
    assert unlogged == [Release("bare", skip="content_not_captured")]


def test_truncated_content_marks_the_turn_evidence_truncated() -> None:
    buffer = make_buffer()
    (release,) = buffer.add_span(span(1, 0, 1), chat(ANSWER, INVOICE, content_truncated=True), "a").releases
    assert release.turn is not None and release.turn.evidence_truncated


def test_event_form_logs_supply_answer_evidence_and_prompt_for_a_content_free_span() -> None:
    buffer = make_buffer()

    def log(name: str, facts: LogFacts) -> None:
        assert buffer.add_log(LogEventRecord(TRACE, 1, name), facts).releases == []

    log("gen_ai.user.message", LogFacts("semconv_events", user_prompt="Total of INV-2210?"))
    log("gen_ai.tool.message", LogFacts("semconv_events", evidence=(INVOICE,)))
    log("gen_ai.choice", LogFacts("semconv_events", TurnContext(response_id="chatcmpl-9"), answer=ANSWER))
    (release,) = buffer.add_span(span(1, 0, 10), chat(None, content_captured=False), "chat").releases
    assert release.turn is not None
    assert release.turn.answer == ANSWER
    assert release.turn.evidence == (INVOICE,)
    assert release.turn.user_prompt == "Total of INV-2210?"
    assert release.turn.context.response_id == "chatcmpl-9"
    assert release.turn.context.provider == "openai"


def test_ttl_evicts_waiting_answers_unscored_and_counts_the_trace() -> None:
    clock = FakeClock()
    buffer = make_buffer(clock, ttl=30)
    buffer.agent_started(TRACE, 100, 0)
    buffer.add_span(span(1, 1, 2), chat(ANSWER), "chat")
    clock.now += 29
    assert buffer.expire().releases == []
    clock.now += 2
    decisions = buffer.expire()
    assert decisions.releases == [Release("chat", skip="evicted")]
    assert decisions.evictions == ["ttl"]
    assert buffer.trace_count == 0


def test_idle_evidence_expires_silently() -> None:
    clock = FakeClock()
    buffer = make_buffer(clock, ttl=30)
    buffer.add_span(span(1, 0, 1), tool("{}", "call_1"), "tool")
    clock.now += 31
    assert buffer.expire() == Decisions()
    assert buffer.trace_count == 0


def test_max_traces_evicts_the_least_recently_used_trace() -> None:
    buffer = make_buffer(max_traces=2)
    buffer.agent_started(1, 100, 0)
    buffer.add_span(span(1, 1, 2, trace_id=1), chat(ANSWER), "waiting")
    buffer.agent_started(2, 200, 0)
    decisions = buffer.agent_started(3, 300, 0)
    assert decisions.releases == [Release("waiting", skip="evicted")]
    assert decisions.evictions == ["max_traces"]
    assert buffer.trace_count == 2


def test_max_bytes_evicts_a_trace_that_grows_too_large() -> None:
    buffer = make_buffer(max_trace_bytes=1000)
    buffer.agent_started(TRACE, 100, 0)
    buffer.add_span(span(1, 1, 2), chat(ANSWER), "chat")
    decisions = buffer.add_span(span(2, 3, 4), tool("x" * 2000, "call_big"), "tool")
    assert by_handle(decisions) == {"tool": Release("tool"), "chat": Release("chat", skip="evicted")}
    assert decisions.evictions == ["max_bytes"]


def test_max_buffer_bytes_evicts_least_recently_used_traces_to_bound_memory() -> None:
    buffer = make_buffer(max_trace_bytes=10_000, max_buffer_bytes=5_000)
    for trace in (1, 2):
        buffer.agent_started(trace, 100, 0)
        buffer.add_span(span(1, 1, 2, trace_id=trace), chat(ANSWER), f"held{trace}")
        assert buffer.add_span(span(2, 3, 4, trace_id=trace), tool("x" * 2000, "c"), "t").evictions == []
    # Each trace stays under its own limit; the third pushes the buffer past its total.
    buffer.agent_started(3, 100, 0)
    decisions = buffer.add_span(span(2, 3, 4, trace_id=3), tool("y" * 2000, "c"), "t3")
    assert decisions.evictions == ["max_bytes"]
    assert Release("held1", skip="evicted") in decisions.releases
    assert buffer.trace_count == 2
    # The total follows evictions: the next large trace evicts only the next oldest one.
    buffer.agent_started(4, 100, 0)
    later = buffer.add_span(span(2, 3, 4, trace_id=4), tool("z" * 2000, "c"), "t4")
    assert later.evictions == ["max_bytes"] and Release("held2", skip="evicted") in later.releases
    assert buffer.trace_count == 2


def test_drain_scores_held_answers_as_standalone_turns() -> None:
    buffer = make_buffer()
    buffer.agent_started(TRACE, 100, 0)
    buffer.add_span(span(1, 1, 2), chat(ANSWER, INVOICE), "chat")
    (release,) = buffer.drain()
    assert release.handle == "chat" and release.turn is not None
    assert buffer.trace_count == 0


def test_a_lost_agent_end_releases_its_answers_as_standalone_turns() -> None:
    buffer = make_buffer()
    buffer.agent_started(TRACE, 100, 0)
    buffer.agent_started(TRACE, 200, 20)
    buffer.add_span(span(1, 1, 2), chat(ANSWER, INVOICE), "inside")
    buffer.add_span(span(2, 21, 22), chat("Other: $5,000.", INVOICE), "later")
    (release,) = buffer.agent_lost(TRACE, 100, 10).releases
    assert release.handle == "inside" and release.turn is not None
    (release,) = buffer.agent_lost(TRACE, 200, 30).releases
    assert release.handle == "later" and release.turn is not None
    assert buffer.agent_lost(TRACE, 300, 40) == Decisions()


def test_answers_of_other_traces_are_not_held_by_an_open_agent() -> None:
    buffer = make_buffer()
    buffer.agent_started(1, 100, 0)
    (release,) = buffer.add_span(span(1, 1, 2, trace_id=2), chat(ANSWER, INVOICE), "other").releases
    assert release.turn is not None and release.turn.trace_id == 2


def test_every_handle_comes_back_exactly_once() -> None:
    buffer = make_buffer(max_traces=3)
    seen: list[str] = []
    for trace in range(10):
        seen += [r.handle for r in buffer.agent_started(trace, 1000 + trace, 0).releases]
        for i in range(4):
            facts = chat(f"Answer {i} costs $1,00{i}.") if i % 2 else tool(f"result {i}", f"call_{i}")
            seen += [
                r.handle
                for r in buffer.add_span(span(i, i, i + 1, trace_id=trace), facts, f"{trace}/{i}").releases
            ]
        if trace % 2:
            seen += [
                r.handle
                for r in buffer.add_span(
                    span(1000 + trace, 0, 9, trace_id=trace), agent(), f"{trace}/a"
                ).releases
            ]
    seen += [release.handle for release in buffer.drain()]
    expected = {f"{t}/{i}" for t in range(10) for i in range(4)} | {f"{t}/a" for t in range(10) if t % 2}
    assert sorted(seen) == sorted(expected)


def test_released_answers_and_closed_agents_free_their_bytes() -> None:
    # What stays is one answer digest per scored turn (64 bytes, 3,200 for 50 turns); the 50 held
    # answers (~180 bytes each) would not fit beside them if releasing did not free their bytes.
    buffer = make_buffer(max_trace_bytes=6000)
    for turn in range(50):
        start = turn * 10
        buffer.agent_started(TRACE, 1000 + turn, start)
        buffer.add_span(span(turn, start + 1, start + 2), chat(f"Turn {turn}: " + "x" * 100), f"chat{turn}")
        decisions = buffer.add_span(span(1000 + turn, start, start + 5), agent(), f"agent{turn}")
        assert decisions.evictions == []
        assert decisions.releases[-1].turn is not None


def test_unreadable_spans_pass_through_but_an_unreadable_open_agent_still_closes_its_turn() -> None:
    buffer = make_buffer()
    assert buffer.add_span(span(7, 0, 1), None, "plain").releases == [Release("plain")]
    assert buffer.trace_count == 0
    buffer.agent_started(TRACE, 100, 0)
    buffer.add_span(span(1, 1, 2), chat(ANSWER, INVOICE), "chat")
    releases = by_handle(buffer.add_span(span(100, 0, 10), None, "agent"))
    assert releases["chat"].turn is not None
    assert releases["agent"] == Release("agent")


def test_an_agent_without_output_after_its_turn_was_scored_is_no_skip() -> None:
    buffer = make_buffer()
    # The agent's start was not seen (not named invoke_agent), so its answer was scored on its own.
    (chat_release,) = buffer.add_span(span(1, 1, 5), chat(ANSWER, INVOICE), "chat").releases
    assert chat_release.turn is not None
    assert buffer.add_span(span(100, 0, 10), agent(), "agent").releases == [Release("agent")]


def test_an_agent_without_output_in_a_trace_with_nothing_scored_is_no_answer() -> None:
    buffer = make_buffer()
    assert buffer.add_span(span(100, 0, 10), agent(), "agent").releases == [
        Release("agent", skip="no_answer")
    ]


MS = 1_000_000


def test_an_answer_stamped_up_to_a_millisecond_after_its_agent_still_belongs_to_it() -> None:
    # OTel JS stamps a span's start from Date.now() (whole ms) and its end as start + measured
    # duration, so a chat span that ended first can carry an end up to 1 ms after its agent's.
    buffer = make_buffer()
    buffer.agent_started(TRACE, 100, 0)
    assert buffer.add_span(span(3, 5 * MS, 10 * MS + MS // 2), chat(ANSWER), "final-chat").releases == []
    releases = by_handle(buffer.add_span(span(100, 0, 10 * MS, name="invoke_agent"), agent(ANSWER), "agent"))
    scored = releases["final-chat"].turn
    assert scored is not None and scored.span_id == 3
    assert releases["agent"] == Release("agent", skip="duplicate")


def test_an_answer_ending_more_than_a_millisecond_after_the_agent_is_not_its_own() -> None:
    buffer = make_buffer()
    buffer.agent_started(TRACE, 100, 0)
    buffer.add_span(span(3, 5 * MS, 12 * MS), chat("A later answer: $2,000."), "later")
    releases = by_handle(buffer.add_span(span(100, 0, 10 * MS, name="invoke_agent"), agent(ANSWER), "agent"))
    assert releases["agent"].turn is not None and releases["agent"].turn.answer == ANSWER
    # No agent is open any more: the later answer leaves as a turn of its own.
    assert releases["later"].turn is not None and releases["later"].turn.answer == "A later answer: $2,000."
