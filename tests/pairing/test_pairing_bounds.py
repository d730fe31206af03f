"""The buffer's hard bounds: no recursion on input, every kept byte counted, every handle out once."""

from __future__ import annotations

import gc
import tracemalloc
from collections import Counter
from typing import Any

import pytest

from otel_groundedness.pairing import Decisions, PairingBuffer, Release
from otel_groundedness.records import LogEventRecord, LogFacts, SpanFacts, SpanRecord, TurnContext
from otel_groundedness.scoring.evidence import Evidence
from tests.pairing.test_pairing import INVOICE, agent, chat, make_buffer, span


def nested(depth: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(depth):
        value = {"level": [value]}
    return value


def handles(decisions: Decisions[str]) -> Counter[str]:
    return Counter(release.handle for release in decisions.releases)


def big_span(span_id: int, start: int, end: int, *, trace_id: int, attribute_bytes: int) -> SpanRecord:
    return SpanRecord(
        trace_id,
        span_id,
        None,
        "chat",
        "CLIENT",
        start,
        end,
        attributes={"gen_ai.input": "x" * attribute_bytes},
    )


@pytest.mark.parametrize("depth", [400, 5_000])
def test_deeply_nested_evidence_is_measured_and_reaches_the_turn(depth: int) -> None:
    buffer = make_buffer()
    deep = Evidence(nested(depth, {"total": 1243500}), "")  # no call id: keyed by its content
    facts = SpanFacts("semconv", TurnContext(operation="execute_tool"), evidence=(deep,), is_tool=True)
    assert buffer.add_span(span(1, 0, 5), facts, "tool").releases == [Release("tool")]
    (release,) = buffer.add_span(span(2, 6, 9), chat("Total $1,243,500."), "chat").releases
    assert release.turn is not None and release.turn.evidence == (deep,)


def test_a_failure_inside_a_call_still_releases_every_handle_it_touched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    buffer = make_buffer(max_traces=1)
    buffer.agent_started(1, 10, 0)
    assert buffer.add_span(span(11, 1, 5, trace_id=1), chat("Held answer $5,000."), "held").releases == []

    def explode(*_args: Any, **_kwargs: Any) -> None:
        raise RecursionError("adversarial input")

    monkeypatch.setattr(PairingBuffer, "_add_evidence", explode)
    # Trace 2 evicts trace 1 (max_traces) before the failure: both handles must come out, once.
    decisions = buffer.add_span(span(21, 0, 5, trace_id=2), chat("Other $1.", INVOICE), "failing")
    assert handles(decisions) == Counter({"held": 1, "failing": 1})
    assert decisions.failed
    monkeypatch.undo()
    assert buffer.drain() == []


def test_an_agent_whose_end_fails_releases_its_held_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    buffer = make_buffer()
    buffer.agent_started(1, 10, 0)
    buffer.add_span(span(11, 1, 5, trace_id=1), chat("Held answer $5,000."), "held")

    def explode(*_args: Any, **_kwargs: Any) -> None:
        raise ValueError("pairing bug")

    monkeypatch.setattr(PairingBuffer, "_close_agent", explode)
    decisions = buffer.add_span(span(10, 0, 9, trace_id=1), agent(), "agent")
    assert handles(decisions) == Counter({"held": 1, "agent": 1})
    assert {release.skip for release in decisions.releases} == {"error"}
    monkeypatch.undo()
    assert buffer.trace_count == 0  # the failed trace is gone, so nothing waits for a TTL


def test_a_failure_after_the_handle_was_held_does_not_release_it_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    buffer = make_buffer()
    buffer.agent_started(1, 10, 0)

    def explode(*_args: Any, **_kwargs: Any) -> None:
        raise MemoryError

    monkeypatch.setattr(PairingBuffer, "_enforce_bytes", explode)
    decisions = buffer.add_span(span(11, 1, 5, trace_id=1), chat("Held answer $5,000."), "held")
    monkeypatch.undo()
    assert handles(decisions) == Counter({"held": 1})
    assert buffer.drain() == []


def test_held_spans_count_their_attributes_against_the_byte_caps() -> None:
    buffer = make_buffer(max_trace_bytes=1 << 30, max_buffer_bytes=1 << 20)
    released: Counter[str] = Counter()
    evictions: list[str] = []
    for trace in range(1, 41):
        buffer.agent_started(trace, 1000 + trace, 0)
        decisions = buffer.add_span(
            big_span(trace, 1, 5, trace_id=trace, attribute_bytes=100_000),
            chat("Answer $5,000."),
            f"held{trace}",
        )
        released.update(handles(decisions))
        evictions.extend(decisions.evictions)
    # 40 held spans of 100 KB each cannot all stay under a 1 MiB cap.
    assert buffer.byte_count <= 1 << 20
    assert evictions.count("max_bytes") >= 30
    assert all(count == 1 for count in released.values())


def test_the_user_prompt_counts_against_the_trace_cap() -> None:
    buffer = make_buffer(max_trace_bytes=50_000)
    buffer.agent_started(1, 10, 0)
    decisions = buffer.add_span(span(11, 1, 5, trace_id=1), chat(None, user_prompt="p" * 60_000), "step")
    assert decisions.evictions == ["max_bytes"]


def test_scored_answers_are_remembered_by_digest_not_by_text() -> None:
    buffer = make_buffer(max_traces=512)
    gc.collect()
    tracemalloc.start()
    try:
        for trace in range(1, 201):
            answer = f"Answer {trace}: " + "$1,243,500 " * 100_000  # ~1.1 MB each
            (release,) = buffer.add_span(
                span(1, 0, 5, trace_id=trace), chat(answer, INVOICE), "chat"
            ).releases
            assert release.turn is not None
            del release, answer
        gc.collect()
        kept, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert buffer.trace_count == 200
    assert kept < 8 * 1024 * 1024  # the text was 220 MB; digests and evidence are a few hundred KB
    assert buffer.byte_count < 8 * 1024 * 1024


def test_duplicate_answers_are_still_recognised_by_digest() -> None:
    buffer = make_buffer()
    first = buffer.add_span(span(1, 0, 5), chat("Total  $1,243,500.", INVOICE), "first")
    second = buffer.add_span(span(2, 6, 9), chat("Total $1,243,500.", INVOICE), "second")
    assert first.releases[0].turn is not None
    assert second.releases == [Release("second", skip="duplicate")]


def test_identical_content_without_call_ids_is_kept_once_whatever_its_depth() -> None:
    buffer = make_buffer()
    for span_id in (1, 2):
        facts = SpanFacts(
            "semconv",
            TurnContext(operation="execute_tool"),
            evidence=(Evidence(nested(3_000, [1, 2.5, None, True, "x"]), ""),),
            is_tool=True,
        )
        buffer.add_span(span(span_id, 0, 5), facts, f"tool{span_id}")
    (release,) = buffer.add_span(span(3, 6, 9), chat("Answer 12,345."), "chat").releases
    assert release.turn is not None and len(release.turn.evidence) == 1


def test_event_form_content_is_charged_its_text_and_context_once_per_span() -> None:
    buffer = make_buffer()
    record = LogEventRecord(trace_id=7, span_id=3, event_name="gen_ai.choice")
    context = TurnContext(provider="openai", request_model="gpt")
    buffer.add_log(record, LogFacts("semconv_events", context, answer="abc"))
    # The item charge, the answer, and the context as a tuple: 8 for it, its text, 8 per None.
    assert buffer.byte_count == 64 + 3 + (8 + 6 + 3 + 5 * 8)
    buffer.add_log(record, LogFacts("semconv_events", TurnContext(agent_name="a"), answer="abcd"))
    assert buffer.byte_count == 64 + 4 + (8 + 6 + 3 + 1 + 4 * 8)  # replaced, not added
    odd = TurnContext(operation=("x", "y"))  # type: ignore[arg-type]  # not text: measured as a tuple
    buffer.add_log(LogEventRecord(trace_id=8, span_id=3, event_name="gen_ai.choice"), LogFacts("e", odd))
    assert buffer.byte_count == 2 * 64 + 4 + (8 + 6 + 3 + 1 + 4 * 8) + (8 + (8 + 2) + 6 * 8)
