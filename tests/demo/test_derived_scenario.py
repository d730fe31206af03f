"""The orders scenario: the agent adds up the line totals itself, and the turn still scores grounded."""

from __future__ import annotations

from otel_groundedness import score
from otel_groundedness.demo.scenarios import plan_turns


def test_a_summed_order_scores_grounded_with_a_derived_sum() -> None:
    clean = [
        turn
        for turn in plan_turns(60, fault_rate=0.3, stream_share=0.25, seed=7)
        if turn.scenario.family == "orders" and turn.fault is None
    ]
    assert clean
    for turn in clean:
        [order] = [request.result for request in turn.scenario.tools]
        assert "subtotal" not in order
        report = score(turn.answer, [order], user_prompt=turn.scenario.prompt)
        assert report.label == "grounded", turn.answer
        summed = next(v for v in report.verdicts if v.text == turn.scenario.facts["items_total"].text)
        if order["shipping"]:  # without shipping the items total is the order total, stated as such
            assert summed.reason == "derived_sum"
            assert summed.citation is not None
            assert [o.path for o in summed.citation.operands] == [
                f"$.items[{line}].line_total" for line in range(3)
            ]


def test_a_corrupted_items_total_is_flagged() -> None:
    faulted = [
        turn
        for turn in plan_turns(300, fault_rate=0.3, stream_share=0.25, seed=7)
        if turn.faulted_fact == "items_total" and turn.fault in ("transposed_digits", "magnitude_slip")
    ]
    assert faulted
    for turn in faulted:
        report = score(turn.answer, [request.result for request in turn.scenario.tools])
        assert report.label != "grounded", turn.answer
