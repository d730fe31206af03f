"""Properties of score() over random and adversarial input (hypothesis) and a 1 MB adversarial call."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from otel_groundedness.scoring import Evidence, GroundednessPolicy, GroundednessReport, score
from otel_groundedness.scoring.engine import readable

# Fragments that make extraction work hard: figures, separators, currencies, dates, ids, hedges.
TOKENS = [
    "$",
    "€",
    "£",
    "USD ",
    " EUR",
    "%",
    " percent",
    " bps",
    "-",
    "−",
    ",",
    ".",
    "/",
    ":",
    "#",
    "@",
    "(",
    ")",
    "1",
    "12",
    "1,243,500",
    "1.24",
    "0.153",
    "4,812",
    "2025",
    "2020-2024",
    "03/04/2025",
    "2025-03-03T10:15:00Z",
    " March ",
    "Mar 3",
    "3. März 2025",
    "1 243 500,00 €",
    " million",
    "M",
    "k",
    "B",
    "ms",
    "kg",
    "INV-2210",
    "inv-2210",
    "#4521",
    "a@b.example",
    "https://x.example/a.",
    "v1.2.3",
    "9fceb02d0ae5",
    "10.0.0.1",
    "(555) 123-4567",
    "about ",
    "roughly ",
    " fell ",
    "\\n",
    "\n",
    " ",
    "COVID-19",
]
texts = st.one_of(
    st.text(max_size=200),
    st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=4)), max_size=40).map("".join),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | texts,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(texts, children, max_size=5),
    max_leaves=25,
)
evidence_items = st.one_of(
    texts, json_values, json_values.map(json.dumps), texts.map(lambda t: Evidence(t, "id"))
)
COMMON = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(answer: str, report: GroundednessReport) -> None:
    vacuous = report.label in ("no_evidence", "no_factual_content")
    assert (report.score is None) == vacuous
    assert report.score is None or 0.0 <= report.score <= 1.0
    assert len(report.supported) + len(report.contradicted) + len(report.unsupported) == report.total_atoms
    # A verdict quotes the answer as it is read: each lone surrogate as U+FFFD (same offsets).
    read = readable(answer)
    for verdict in report.verdicts:
        assert read[verdict.start : verdict.end] == verdict.text
    assert GroundednessReport.from_dict(json.loads(report.to_json())) == report


def test_a_verdict_quotes_a_lone_surrogate_as_the_replacement_character() -> None:
    answer = "https://x.example/a.\ud800"
    report = score(answer, [])
    check_invariants(answer, report)
    (verdict,) = report.verdicts
    assert verdict.text == "https://x.example/a.\ufffd" and (verdict.start, verdict.end) == (0, 21)


@COMMON
@given(answer=texts, evidence=st.lists(evidence_items, max_size=4), prompt=st.none() | texts)
def test_never_raises_and_keeps_its_invariants(answer: str, evidence: list[Any], prompt: str | None) -> None:
    first = score(answer, evidence, user_prompt=prompt)
    check_invariants(answer, first)
    assert score(answer, evidence, user_prompt=prompt) == first  # deterministic


@COMMON
@given(answer=texts)
def test_an_answer_checked_against_itself_is_fully_supported(answer: str) -> None:
    # Text that parses as JSON is walked as JSON, a different reading than the answer's own.
    assume(answer.strip()[:1] not in ("{", "[", '"'))
    report = score(answer, [answer])
    assert report.unsupported == () and report.contradicted == ()


def adversarial(size: int, seed: int) -> str:
    rng = random.Random(seed)
    alphabet = "0123456789" * 3 + ",.,.$%@-/#: -€()kMB"
    return "".join(rng.choice(alphabet) for _ in range(size))


def test_one_megabyte_adversarial_answer_and_evidence_return() -> None:
    megabyte = 1 << 20
    small = adversarial(2048, 1)
    against_big_evidence = score(small, [adversarial(megabyte, 2)])
    check_invariants(small, against_big_evidence)
    assert against_big_evidence.evidence_truncated  # the default cap is 256 KiB
    big = adversarial(megabyte, 3)
    # The whole megabyte is read and judged when the policy allows it; the default checks only the
    # first 32K chars, and the default work budget not all of their atoms.
    unbounded = GroundednessPolicy(max_answer_chars=megabyte, work_budget=1 << 40)
    big_answer = score(big, [small], policy=unbounded)
    assert big_answer.total_atoms > 10_000 and not big_answer.answer_truncated
    capped = score(big, [small])
    assert capped.answer_truncated and 0 < capped.total_atoms < big_answer.total_atoms
    assert capped.budget_exceeded and capped.atoms_unchecked > 0
    assert all(verdict.end <= GroundednessPolicy().max_answer_chars for verdict in capped.verdicts)
    assert len(big_answer.supported) + len(big_answer.contradicted) + len(big_answer.unsupported) == (
        big_answer.total_atoms
    )
