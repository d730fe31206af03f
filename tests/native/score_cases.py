"""``score()`` on generated answer/evidence pairs: every report must hold the report's invariants
(``problems``), the same input must give the same report twice, and nothing may raise.

    python -m tests.native.score_cases --cases 1000000 --workers 2   # make fuzz

Until the Python engine was deleted, the same pairs compared both engines' ``to_json()``
(1,000,000 pairs, 0 mismatches); ``score_golden`` keeps 1,500 of them with the reports both gave.

Generated answers restate evidence figures, dates and identifiers, corrupted (a digit changed,
dropped or swapped, a sign flipped, a magnitude slipped, a currency swapped, a date component
moved, an identifier edited) or computed (sums, differences, changes, ratios, averages), in
sentences with and without the wording that names a computation, under random policies (small
work budgets and answer caps, every label rule, locales, kinds, derived values off).
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from otel_groundedness import _native
from otel_groundedness.scoring import GroundednessReport, score
from otel_groundedness.scoring.atoms import ATOM_KINDS, NUMERIC_KINDS
from otel_groundedness.scoring.engine import readable
from otel_groundedness.scoring.policy import GroundednessPolicy
from tests.native.evidence_cases import random_case

TESTS = Path(__file__).parent.parent
KINDS = list(ATOM_KINDS)
DEVSETS = [
    *sorted((TESTS / "data" / "devset").glob("*.jsonl")),
    TESTS / "scoring" / "devset" / "tables.jsonl",
]


@dataclass
class Case:
    answer: str
    evidence: Any
    user_prompt: str | None = None
    policy: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return (
            f"Case(answer={self.answer!r:.600}, evidence={self.evidence!r:.1500}, "
            f"user_prompt={self.user_prompt!r:.300}, policy={self.policy!r})"
        )


def outcome(run: Any, case: Case) -> str:
    """The report as JSON text, or the exception's kind."""
    policy = GroundednessPolicy(**case.policy)
    try:
        report = run(case.answer, case.evidence, user_prompt=case.user_prompt, policy=policy)
    except Exception as error:
        return f"raised {type(error).__name__}"
    return str(report.to_json())


def problems(case: Case, report: GroundednessReport) -> list[str]:
    """What in ``report`` breaks the report's invariants for ``case``."""
    found = []
    judged = [*report.supported, *report.contradicted, *report.unsupported]
    if report.total_atoms != len(judged):
        found.append(f"total_atoms {report.total_atoms} != {len(judged)} verdicts")
    for bucket, verdicts in (
        ("supported", report.supported),
        ("contradicted", report.contradicted),
        ("unsupported", report.unsupported),
    ):
        for verdict in verdicts:
            if verdict.verdict != bucket:
                found.append(f"{verdict.text!r} is {verdict.verdict} in {bucket}")
            if not 0 <= verdict.start < verdict.end <= len(case.answer):
                found.append(f"{verdict.text!r} spans {verdict.start}..{verdict.end}")
            elif verdict.text != readable(case.answer)[verdict.start : verdict.end]:
                found.append(f"{verdict.text!r} is not the answer's text at {verdict.start}")
            if bucket != "unsupported" and verdict.citation is None:
                found.append(f"{bucket} {verdict.text!r} cites nothing")
            if (verdict.nearest_evidence is not None) != (bucket == "contradicted"):
                found.append(f"{bucket} {verdict.text!r} has nearest_evidence {verdict.nearest_evidence!r}")
    if judged and report.score is None and not report.no_evidence:
        found.append("atoms but no score")
    if report.score is not None and not 0.0 <= report.score <= 1.0:
        found.append(f"score {report.score}")
    if report.no_factual_content == bool(judged):
        found.append(f"no_factual_content {report.no_factual_content} with {len(judged)} atoms")
    if report.budget_exceeded != (report.atoms_unchecked > 0):
        found.append("budget_exceeded disagrees with atoms_unchecked")
    return found


def difference(case: Case) -> tuple[str, str] | None:
    """None when ``score()`` holds for ``case``: no exception, a report that keeps its invariants
    and the same report again on a second call; else (what went wrong, the report)."""
    first = outcome(score, case)
    if first.startswith("raised"):
        return first, ""
    report = score(
        case.answer, case.evidence, user_prompt=case.user_prompt, policy=GroundednessPolicy(**case.policy)
    )
    if found := problems(case, report):
        return "; ".join(found), first
    if (again := str(report.to_json())) != first:
        return "a second call gave another report", again
    return None


def devset_cases() -> Iterator[tuple[str, Case]]:
    for path in DEVSETS:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if line.strip():
                data = json.loads(line)
                case = Case(data["answer"], data["evidence"], data.get("user_prompt"))
                yield f"{path.relative_to(TESTS)}:{number}", case
                yield (
                    f"{path.relative_to(TESTS)}:{number} budget 300",
                    Case(case.answer, case.evidence, case.user_prompt, {"work_budget": 300}),
                )


# Generated cases -----------------------------------------------------------------------------

CUES = (
    "", "", "", "total", "in total", "together", "combined", "the difference is", "grew by", "fell by",
    "increased", "decreased", "a decrease of", "down", "up", "the percentage change was", "changed by",
    "on average", "average", "the ratio is", "per", "times", "of", "share of", "margin", "rose to",
    "grew to", "was", "is", "about", "roughly", "points", "percentage points",
)  # fmt: skip
LABELS = (
    "revenue", "operating income", "net income", "total assets", "orders", "units", "cost", "price",
    "2023", "2024", "Q3", "cloud", "amount", "invoice", "growth", "margin", "tax", "discount",
)  # fmt: skip
PROMPTS = (
    None, None, "What was the percentage change in revenue between 2023 and 2024?",
    "What was the total?", "What was revenue in 2024?", "What is the average cost per order?",
    "What was the difference in operating income?", "How much did units fall?",
)  # fmt: skip
CURRENCIES = ("$", "€", "£", "USD ", "EUR ", "")


def _digit_edit(text: str, rng: random.Random) -> str:
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    if not digits:
        return text
    at = rng.choice(digits)
    move = rng.randrange(4)
    if move == 0:
        return text[:at] + str((int(text[at]) + rng.randrange(1, 10)) % 10) + text[at + 1 :]
    if move == 1 and len(digits) > 1:
        return text[:at] + text[at + 1 :]
    if move == 2:
        return text[:at] + rng.choice("0123456789") + text[at:]
    if at + 1 < len(text) and text[at + 1].isdigit():
        return text[:at] + text[at + 1] + text[at] + text[at + 2 :]
    return text


def _number_text(value: float, rng: random.Random) -> str:
    style = rng.randrange(6)
    if style == 0:
        return f"{value:,.2f}"
    if style == 1:
        return f"{value:,.0f}"
    if style == 2:
        return f"{value:.1f}"
    if style == 3:
        return f"{value / 1e6:.1f} million" if abs(value) >= 1e5 else f"{value:g}"
    if style == 4:
        return f"{value:.3g}"
    return repr(round(value, rng.randrange(0, 3)))


def _figure(rng: random.Random, values: list[float]) -> str:
    """A figure the answer states: an evidence value, corrupted or combined, or a random one."""
    pick = rng.random()
    if values and pick < 0.85:
        a, b = rng.choice(values), rng.choice(values)
        operation = rng.randrange(9)
        value = {
            0: a, 1: a, 2: a + b, 3: a - b, 4: (a - b) / b * 100 if b else a,
            5: a / b * 100 if b else a, 6: (a + b) / 2, 7: -a, 8: a * 1000,
        }[operation]  # fmt: skip
        text = _number_text(value, rng)
        if rng.random() < 0.3:
            text = _digit_edit(text, rng)
        if operation in (4, 5) or rng.random() < 0.15:
            return text + rng.choice(("%", " percent", "%", " points"))
        return rng.choice(CURRENCIES) + text
    return rng.choice(CURRENCIES) + _number_text(rng.uniform(-1e6, 1e7), rng)


def _evidence_values(evidence: list[Any]) -> tuple[list[float], list[str]]:
    """Figures and date/identifier texts the evidence states (walked without recursion)."""
    values: list[float] = []
    others: list[str] = []
    stack = list(evidence)
    seen = 0
    while stack and seen < 400:
        seen += 1
        item = stack.pop()
        item = getattr(item, "content", item)
        if isinstance(item, bool):
            continue
        if isinstance(item, int | float):
            if item == item and abs(item) < 1e15:
                values.append(float(item))
        elif isinstance(item, str):
            for kind, text, _, _, fields in _native.extract_atoms(
                readable(item[:4000]), "en-US", 4, KINDS, None
            )[:40]:
                number = fields[0] if kind in NUMERIC_KINDS else None
                if isinstance(number, float) and number == number and abs(number) < 1e15:
                    values.append(number)
                else:
                    others.append(text)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item[:200])
    return values, others


def _other(rng: random.Random, others: list[str]) -> str:
    text = rng.choice(others)
    return _digit_edit(text, rng) if rng.random() < 0.4 else text


def _answer(rng: random.Random, evidence: list[Any]) -> str:
    values, others = _evidence_values(evidence)
    sentences = []
    for _ in range(rng.choice((1, 1, 2, 3, 5, 12))):
        words: list[str] = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            words += [rng.choice(LABELS), rng.choice(CUES)]
            if others and rng.random() < 0.25:
                words.append(_other(rng, others))
            else:
                words.append(_figure(rng, values))
            if rng.random() < 0.3:
                words += ["from", _figure(rng, values)]
        sentences.append(
            " ".join(word for word in words if word).capitalize() + rng.choice((".", ".", ";", "!", ""))
        )
    return " ".join(sentences)


def _policy(rng: random.Random) -> dict[str, Any]:
    policy: dict[str, Any] = {}
    if rng.random() < 0.25:
        policy["work_budget"] = rng.choice((1, 10, 40, 120, 400, 2000))
    if rng.random() < 0.1:
        policy["derived_values"] = False
    if rng.random() < 0.1:
        policy["label_rule"] = rng.choice(("strict", "sentence"))
    if rng.random() < 0.05:
        policy["max_answer_chars"] = rng.randrange(1, 80)
    if rng.random() < 0.05:
        policy["locale"] = rng.choice(("de-DE", "fr-FR", "en-GB"))
    if rng.random() < 0.05:
        policy["anchor_date"] = datetime.date(2025, 4, 15)
    if rng.random() < 0.05:
        policy["min_number_digits"] = rng.choice((1, 2, 6))
    if rng.random() < 0.05:
        policy["include_user_prompt_as_evidence"] = False
    if rng.random() < 0.05:
        policy["max_derivation_operands"] = rng.choice((2, 5))
        policy["max_derivation_candidates"] = rng.choice((10, 100))
    return policy


def generate(rng: random.Random) -> Case:
    items, prompt, cap, _ = random_case(rng)
    policy = _policy(rng)
    if cap:
        policy["max_evidence_bytes"] = cap
    question = rng.choice(PROMPTS) if rng.random() < 0.7 else prompt
    return Case(_answer(rng, items), items, question, policy)


def _run_share(share: tuple[int, int]) -> tuple[int, str | None]:
    """``cases`` pairs from ``seed``: the mismatch count and the first mismatch."""
    cases, seed = share
    rng = random.Random(seed)
    mismatches = 0
    first: str | None = None
    for number in range(cases):
        case = generate(rng)
        found = difference(case)
        if found is not None:
            mismatches += 1
            if first is None:
                first = (
                    f"seed {seed} case {number}: {case!r}\n"
                    f"  problem: {found[0]:.3000}\n  report: {found[1]:.3000}"
                )
    return mismatches, first


def run(cases: int, seed: int, workers: int = 1) -> int:
    """Checks ``cases`` generated pairs in ``workers`` processes (seeds ``seed``, ``seed + 1``,
    ...); prints the rate and the first failure; returns the number of failures."""
    started = time.perf_counter()
    shares = [(cases // workers + (w < cases % workers), seed + w) for w in range(workers)]
    if workers == 1:
        results = [_run_share(shares[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = pool.map(_run_share, shares)
    mismatches = sum(count for count, _ in results)
    first = next((found for _, found in results if found is not None), None)
    elapsed = time.perf_counter() - started
    print(
        f"score: {cases:,} pairs, {mismatches} failures, {cases / elapsed:,.0f} pairs/s, "
        f"{workers} worker(s), seeds {seed}..{seed + workers - 1}"
    )
    if first is not None:
        print("first failure:", first.encode("utf-8", "backslashreplace").decode("utf-8"))
    return mismatches


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="score() on generated answer/evidence pairs")
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    return 1 if run(args.cases, args.seed, args.workers) else 0


if __name__ == "__main__":
    raise SystemExit(main())
