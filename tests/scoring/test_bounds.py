"""Hard bounds of score(): long tokens, deep nesting, the work budget, inputs that must never raise.

Nothing here asserts wall time (the machines are shared); memory is measured with tracemalloc, and
benchmarks/adversarial_bench.py prints the timings.
"""

from __future__ import annotations

import json
import math
import random
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from otel_groundedness.env_config import EnvProblem
from otel_groundedness.scoring import Evidence, GroundednessPolicy, GroundednessReport, score
from otel_groundedness.scoring.results import TRUNCATION_REASONS
from tests.scoring.test_properties import TOKENS, check_invariants

PEAK_LIMIT = 64 << 20  # the benchmark's memory target, for one call at the default caps
# The engine's bounds (native/engine/src): MAX_DEPTH of the evidence walk (corpus.rs) and
# NEAR_MAX_CHARS, the longest identifier judged for one-edit near misses (identifier_index.rs).
# test_the_depth_bound_is_where_it_is_stated and the near-miss test below pin them by behaviour.
MAX_DEPTH = 10_000
NEAR_MAX_CHARS = 64


def hex_run(length: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice("0123456789abcdef") for _ in range(length))


def peak_bytes(call: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- long tokens ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "evidence"),
    [
        ("Commit abcdef1234 was deployed.", "build " + hex_run(64_000) + " done"),
        ("Commit " + hex_run(30_000) + " was deployed.", "Commit abcdef1234 was deployed."),
        ("Ticket INV-12345 is closed.", "see INV-" + "7" * 200_000),
        ("Release 1.2.3 shipped.", "release 1.2." + "7" * 200_000),
    ],
    ids=["hex-in-evidence", "hex-in-answer", "ticket-tail", "version-tail"],
)
def test_one_long_identifier_costs_linear_memory(answer: str, evidence: str) -> None:
    assert peak_bytes(lambda: score(answer, [evidence])) < PEAK_LIMIT


def test_long_identifiers_are_still_matched_exactly() -> None:
    digest = hex_run(4096, seed=7)
    report = score(f"The artifact digest is {digest}.", [{"digest": digest}])
    (verdict,) = report.verdicts
    assert (verdict.verdict, verdict.reason, verdict.value) == ("supported", "exact", digest)


def test_near_misses_are_judged_up_to_the_length_bound_and_only_exactly_past_it() -> None:
    short = "a1b2c3d4e5" * (NEAR_MAX_CHARS // 10)
    assert len(short) <= NEAR_MAX_CHARS
    edited = short[:-1] + ("0" if short[-1] != "0" else "1")
    near = score(f"Build {edited} passed.", [{"build": short}])
    assert [(v.verdict, v.reason) for v in near.verdicts] == [("contradicted", "identifier_edit")]
    long = short * 2
    long_edited = long[:-1] + ("0" if long[-1] != "0" else "1")
    far = score(f"Build {long_edited} passed.", [{"build": long}])
    assert [(v.verdict, v.reason) for v in far.verdicts] == [("unsupported", "not_found")]


@pytest.mark.parametrize(("length", "judged"), [(NEAR_MAX_CHARS, True), (NEAR_MAX_CHARS + 1, False)])
def test_the_near_miss_length_bound_is_where_it_is_stated(length: int, judged: bool) -> None:
    build = ("a1b2c3d4e5" * 10)[:length]
    edited = build[:-1] + "0"
    report = score(f"Build {edited} passed.", [{"build": build}])
    expected = ("contradicted", "identifier_edit") if judged else ("unsupported", "not_found")
    assert [(v.text, v.verdict, v.reason) for v in report.verdicts] == [(edited, *expected)]


def test_every_edit_position_of_a_ticket_is_found_among_many_similar_ones() -> None:
    rng = random.Random(5)
    tickets = sorted({f"INV-{rng.randint(100_000, 999_999)}" for _ in range(5000)})
    target = tickets[1234]
    evidence = [" ".join(tickets)]
    for position in range(4, len(target)):
        digit = "0" if target[position] != "0" else "1"
        edited = target[:position] + digit + target[position + 1 :]
        if edited in tickets:
            continue
        report = score(f"Invoice {edited} is open.", evidence)
        (verdict,) = report.verdicts
        assert verdict.verdict == "contradicted", (edited, verdict)
        assert verdict.citation is not None


def test_a_url_with_a_long_run_of_closers_is_trimmed_once() -> None:
    answer = "See https://x.example/a(b)" + ")" * 20_000 + " now."
    report = score(answer, ["https://x.example/a(b)"])
    (verdict,) = report.verdicts
    assert (verdict.text, verdict.verdict) == ("https://x.example/a(b)", "supported")


def test_a_long_run_of_sentence_marks_is_one_boundary_scan() -> None:
    answer = "." * 30_000 + "x Invoice INV-2210 totals $1,243,500."
    report = score(answer, [{"id": "INV-2210", "total": 1243500}])
    assert report.label == "grounded" and report.total_atoms == 2


# --- depth --------------------------------------------------------------------------------------


def nested(depth: int, leaf: object) -> object:
    value = leaf
    for level in range(depth):
        value = {"level": value} if level % 2 else [value]
    return value


@pytest.mark.parametrize("depth", [400, 5000, MAX_DEPTH - 2])
def test_deep_evidence_is_walked_and_supports_the_answer(depth: int) -> None:
    report = score("The total is $1,243,500.", [nested(depth, {"total": 1243500})])
    assert report.label == "grounded"
    assert not report.evidence_truncated and report.evidence_truncation_reasons == ()
    (verdict,) = report.verdicts
    assert verdict.citation is not None and verdict.citation.path is not None
    assert verdict.citation.path.endswith(".total") and len(verdict.citation.path) < 400


def test_the_depth_bound_is_where_it_is_stated() -> None:
    # The walk's stack holds the evidence list too: MAX_DEPTH - 1 nested levels are walked.
    inside = score("The total is $1,243,500.", [nested(MAX_DEPTH - 1, {"total": 1243500})])
    assert inside.label == "grounded" and inside.evidence_truncation_reasons == ()
    past = score("The total is $1,243,500.", [nested(MAX_DEPTH, {"total": 1243500})])
    assert past.evidence_truncation_reasons == ("max_depth",)


def test_evidence_past_the_depth_bound_is_reported_not_silently_lost() -> None:
    report = score("The total is $1,243,500.", [nested(MAX_DEPTH * 5, {"total": 1243500})])
    assert report.evidence_truncation_reasons == ("max_depth",) and report.evidence_truncated
    assert [v.verdict for v in report.verdicts] == ["unsupported"]


def test_json_text_deeper_than_the_parser_is_scanned_as_flat_text_and_reported() -> None:
    text = "[" * 5000 + '{"total": 1243500}' + "]" * 5000
    report = score("The total is $1,243,500.", [text])
    assert report.label == "grounded"  # the keyed number survives the flat scan
    assert report.evidence_truncated and report.evidence_truncation_reasons == ("json_too_deep",)
    (verdict,) = report.verdicts
    assert verdict.citation is not None and verdict.citation.text == "1243500"


def test_json_text_within_the_parser_limit_is_parsed_and_walked() -> None:
    text = "[" * 900 + '{"total": 1243500}' + "]" * 900
    report = score("The total is $1,243,500.", [text])
    assert report.label == "grounded" and report.evidence_truncation_reasons == ()


def test_truncation_reasons_name_each_cause_once_and_round_trip() -> None:
    evidence = ["{not json 2210", "[" * 3000 + "1" + "]" * 3000, "x" * 500, "INV-2210"]
    policy = GroundednessPolicy(max_evidence_bytes=6400)
    report = score("Invoice INV-2210.", evidence, policy=policy)
    assert report.evidence_truncation_reasons == ("max_evidence_bytes", "unparseable_json", "json_too_deep")
    assert set(report.evidence_truncation_reasons) <= set(TRUNCATION_REASONS)
    assert report.evidence_truncated
    assert GroundednessReport.from_dict(json.loads(report.to_json())) == report


def test_reports_written_before_the_new_fields_still_load() -> None:
    report = score("Invoice INV-2210.", ["INV-2210"])
    old = report.to_dict()
    for name in ("evidence_truncation_reasons", "budget_exceeded", "atoms_unchecked"):
        del old[name]
    assert GroundednessReport.from_dict(old) == report


# --- the work budget ----------------------------------------------------------------------------


def dense_evidence(rows: int) -> list[object]:
    rng = random.Random(11)
    return [{"rows": [{"revenue": rng.randint(100_000, 9_999_999)} for _ in range(rows)]}]


def near_miss_answer(count: int) -> str:
    rng = random.Random(12)
    return " ".join(f"Revenue was ${rng.randint(100_000, 9_999_999):,}." for _ in range(count))


def test_an_exhausted_budget_leaves_the_rest_unchecked_and_says_so() -> None:
    answer, evidence = near_miss_answer(200), dense_evidence(3000)
    full = score(answer, evidence, policy=GroundednessPolicy(work_budget=1 << 40))
    assert not full.budget_exceeded and full.atoms_unchecked == 0 and full.total_atoms == 200
    small = score(answer, evidence, policy=GroundednessPolicy(work_budget=5000))
    assert small.budget_exceeded
    assert 0 < small.total_atoms < 200
    assert small.total_atoms + small.atoms_unchecked == 200
    # Every verdict given is the verdict the full run gives: nothing is judged on partial work.
    assert small.verdicts == full.verdicts[: small.total_atoms]
    checked = small.verdicts
    assert small.score == pytest.approx(sum(v.verdict == "supported" for v in checked) / len(checked))
    assert GroundednessReport.from_dict(json.loads(small.to_json())) == small


def test_the_default_budget_is_not_reached_by_ordinary_answers() -> None:
    report = score(near_miss_answer(50), dense_evidence(3000))
    assert not report.budget_exceeded and report.atoms_unchecked == 0


def test_work_budget_is_validated_and_has_an_environment_twin() -> None:
    assert GroundednessPolicy.from_env({"OTEL_GROUNDEDNESS_WORK_BUDGET": "1000"}).work_budget == 1000
    problems: list[EnvProblem] = []
    assert (
        GroundednessPolicy.from_env({"OTEL_GROUNDEDNESS_WORK_BUDGET": "0"}, problems=problems)
        == GroundednessPolicy()
    )
    assert [problem.variable for problem in problems] == ["OTEL_GROUNDEDNESS_WORK_BUDGET"]
    with pytest.raises(ValueError, match="work_budget"):
        GroundednessPolicy(work_budget=True)  # type: ignore[arg-type]
    policy = GroundednessPolicy(work_budget=1234)
    assert GroundednessPolicy.from_dict(policy.to_dict()) == policy


# --- inputs that must never raise ---------------------------------------------------------------


class Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no text")


awkward_text = st.lists(
    st.one_of(
        st.sampled_from([*TOKENS, "\ud800", "\udfff", "\x00", "\x1e", "{", "[", '"', "\\"]),
        st.text(max_size=6),
    ),
    max_size=30,
).map("".join)
# Past 4,300 digits str(int) raises; made by a function so hypothesis never has to print one.
huge_ints = st.integers(min_value=300, max_value=5000).map(lambda digits: 10**digits)
awkward_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    huge_ints,
    huge_ints.map(lambda value: -value),
    st.sampled_from([math.nan, math.inf, -math.inf, Unprintable()]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.binary(max_size=20),
    awkward_text,
)
awkward_keys = st.one_of(awkward_text, st.integers(), huge_ints, st.sampled_from([None, math.nan, 1.5]))
awkward_values = st.recursive(
    awkward_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(awkward_keys, children, max_size=4),
    ),
    max_leaves=20,
)


def as_json_text(value: object) -> str:
    try:
        return json.dumps(value, default=repr)
    except ValueError:  # an int past the digit limit of int -> str
        return "{}"


awkward_items = st.one_of(
    awkward_values,
    awkward_values.map(as_json_text),
    awkward_values.map(lambda value: Evidence(value, source_id="call_1")),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    answer=awkward_text,
    evidence=st.one_of(st.lists(awkward_items, max_size=4), awkward_items),
    prompt=st.none() | awkward_text,
    budget=st.integers(min_value=1, max_value=50),
)
def test_score_never_raises_on_any_evidence(
    answer: str, evidence: Any, prompt: str | None, budget: int
) -> None:
    for policy in (None, GroundednessPolicy(work_budget=budget, max_evidence_bytes=200)):
        report = score(answer, evidence, user_prompt=prompt, policy=policy)
        check_invariants(answer, report)
        assert report.budget_exceeded == (report.atoms_unchecked > 0)
        assert report.evidence_truncated == bool(report.evidence_truncation_reasons)
