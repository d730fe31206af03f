"""The scenario plan: deterministic, unique prompts, every fault dealt, answers true to the tool data."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from decimal import Decimal

from otel_groundedness.demo.faults import FAULT_KINDS, LEGIT_VARIANTS
from otel_groundedness.demo.scenarios import FAMILIES, PlannedTurn, backend_for, plan_turns


def _plan(turns: int = 60, seed: int = 7) -> list[PlannedTurn]:
    return plan_turns(turns, fault_rate=0.3, stream_share=0.25, seed=seed)


def test_plan_is_deterministic_per_seed() -> None:
    assert [t.answer for t in _plan()] == [t.answer for t in _plan()]
    assert [t.answer for t in _plan()] != [t.answer for t in _plan(seed=8)]


def test_fault_share_kinds_and_families() -> None:
    planned = _plan()
    faults = Counter(t.fault for t in planned if t.fault)
    assert sum(faults.values()) == round(60 * 0.3)
    assert set(faults) == set(FAULT_KINDS)
    assert {t.scenario.family for t in planned} == set(FAMILIES)
    assert 0 < sum(t.stream for t in planned) < 60


def test_prompts_are_unique_so_the_script_is_unambiguous() -> None:
    planned = _plan(200)
    assert len({t.scenario.prompt for t in planned}) == 200


def _evidence_strings(turn: PlannedTurn) -> str:
    return (
        " ".join(json.dumps(request.result) for request in turn.scenario.tools) + " " + turn.scenario.prompt
    )


def test_every_clean_fact_is_in_the_tool_results() -> None:
    for turn in _plan(100):
        evidence = _evidence_strings(turn)
        for name, fact in turn.scenario.facts.items():
            if name == "items_total":  # derived: the agent adds up the order's line totals
                [order] = [request.result for request in turn.scenario.tools]
                assert fact.value == sum(Decimal(str(item["line_total"])) for item in order["items"])
                continue
            if isinstance(fact.value, dt.date):
                needle = fact.value.isoformat()
            elif isinstance(fact.value, Decimal):
                # Percent facts come from fractions (error_rate) or percent fields (availability).
                candidates = {
                    repr(float(fact.value)),
                    repr(float(fact.value / 100)),
                    str(int(fact.value)) if fact.value == int(fact.value) else "-",
                }
                assert any(c in evidence for c in candidates), (turn.scenario.family, name, fact)
                continue
            else:
                needle = str(fact.value)
            assert needle in evidence, (turn.scenario.family, name, fact)


def test_faulted_answers_differ_from_the_clean_answer_and_clean_ones_do_not() -> None:
    for turn in _plan(100):
        clean = turn.scenario.answer()
        if turn.fault is None:
            assert turn.answer == clean
        else:
            assert turn.answer != clean, turn.fault


def test_backend_serves_every_planned_tool_call() -> None:
    planned = _plan(20)
    backend = backend_for(planned)
    for turn in planned:
        for request in turn.scenario.tools:
            assert (
                json.loads(backend.call(request.name, json.dumps(dict(request.arguments)))) == request.result
            )


def test_long_plans_with_every_turn_faulted_are_valid() -> None:
    # Thousands of random dates and amounts: leap days, month ends, leading zeros.
    planned = plan_turns(3000, fault_rate=1.0, stream_share=0.0, seed=1)
    assert all(turn.fault is not None and turn.answer != turn.scenario.answer() for turn in planned)


def _stated(value: object) -> list[object]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _stated(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _stated(item)]
    return [value]


def test_harmful_faults_never_land_on_another_stated_value() -> None:
    # Otherwise the "corrupted" answer would state a different true fact of the same record.
    for turn in plan_turns(1500, fault_rate=1.0, stream_share=0.0, seed=2):
        fact = turn.rewritten
        if fact is None or turn.fault in LEGIT_VARIANTS:
            continue
        stated = [leaf for request in turn.scenario.tools for leaf in _stated(dict(request.result))]
        if isinstance(fact.value, dt.date):
            assert fact.value.isoformat() not in {str(v)[:10] for v in stated}, turn.answer
        elif isinstance(fact.value, Decimal):
            numbers = [
                Decimal(str(v)) for v in stated if isinstance(v, int | float) and not isinstance(v, bool)
            ]
            scales = (1, 100) if fact.kind == "percent" else (1,)
            assert all(abs(n * k - fact.value) >= Decimal("0.01") for n in numbers for k in scales), (
                turn.answer
            )
        else:
            assert fact.value not in stated and str(fact.value) not in turn.scenario.prompt, turn.answer
