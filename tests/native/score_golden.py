"""Recorded reports: ``score()``'s ``to_json()`` on a fixed set of inputs (every dev-set case at the
default budget and a small one, the benchmark shapes, hostile evidence, Evidence labels with lone
surrogates and 1,500 generated answer/evidence pairs).

The recording was first made when the Python engine was deleted, from the native engine after both
engines agreed on every case, so it carries the port's proof forward: a change of behaviour shows
as a changed line here, reviewed in the diff.

    python -m tests.native.score_golden            # compare, print the first differences
    python -m tests.native.score_golden --update   # record again after an intended change
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections.abc import Iterator, Sequence
from itertools import islice
from pathlib import Path

from otel_groundedness.scoring import score
from otel_groundedness.scoring.evidence import Evidence
from tests.native.evidence_cases import benchmark_cases, hostile_cases
from tests.native.score_cases import Case, devset_cases, generate, outcome

GOLDEN = Path(__file__).parent / "data" / "score_golden.jsonl.gz"
GENERATED = 1500
BENCH_ANSWERS = (
    "Revenue was $1,243,500 in 2024, up 12.5% from $1,105,333; order ORD-99812 shipped 2025-03-04.",
    "Total 4,812 units; the average was 1,604 and the difference 3,208.",
)


def cases() -> Iterator[tuple[str, Case]]:
    yield from devset_cases()
    for name, items, prompt in islice(benchmark_cases(), 40):
        for number, answer in enumerate(BENCH_ANSWERS):
            yield f"{name} answer {number}", Case(answer, items, prompt)
    for name, items, prompt in hostile_cases():
        yield name, Case("It cost $1,000,000 on 2024-01-02, ticket #4521.", items, prompt)
    evidence = [
        Evidence({"total": 1200.5}, source_id="call-1", kind="tool_result", name="crm"),
        "ok \ud800 $5,000",
    ]
    for number, answer in enumerate(
        ("Total $1,200.50 \udc00 and $5,000.", "\ud800$1,200.51", "x" * 40 + " $5,001")
    ):
        yield f"labels and surrogates {number}", Case(answer, evidence, "What was the total?")
    rng = random.Random(20261202)
    for number in range(GENERATED):
        yield f"generated {number}", generate(rng)


def reports() -> Iterator[tuple[str, str]]:
    for name, case in cases():
        yield name, outcome(score, case)


def recorded() -> dict[str, str]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as lines:
        return {row["case"]: row["report"] for row in map(json.loads, lines)}


def differences() -> Iterator[tuple[str, str | None, str | None]]:
    """(case, recorded report, report now) for each case whose report changed, appeared or went."""
    expected = recorded()
    unseen = dict(expected)
    for name, report in reports():
        unseen.pop(name, None)
        if expected.get(name) != report:
            yield name, expected.get(name), report
    for name, report in unseen.items():
        yield name, report, None


def update() -> int:
    GOLDEN.parent.mkdir(exist_ok=True)
    count = 0
    # mtime 0: the same reports give the same bytes, so an unchanged recording leaves no diff.
    with open(GOLDEN, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as packed:
        for name, report in reports():
            packed.write((json.dumps({"case": name, "report": report}) + "\n").encode())
            count += 1
    return count


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="score() against its recorded reports")
    parser.add_argument("--update", action="store_true", help="record the reports score() gives now")
    args = parser.parse_args(argv)
    if args.update:
        print(f"recorded {update():,} reports in {GOLDEN}")
        return 0
    changed = list(differences())
    for name, before, now in changed[:5]:
        print(f"{name}\n  recorded: {before!s:.3000}\n  now:      {now!s:.3000}")
    print(f"{len(changed)} changed report(s)")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
