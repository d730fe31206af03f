"""The scoring cases timed against another commit's engine, side by side in one run.

``python -m benchmarks --only scoring --against REV`` exports ``otel_groundedness/`` of REV into a
temporary folder and times the same cases (built once, by this tree's ``scoring_bench``) with each
engine in its own subprocess, alternating trees round by round. The machines are noisy, so a ratio
is only quoted from one such run: the best p50 of each tree over the rounds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 3

# Run in a child whose sys.path puts one engine first: it times every case and prints p50s as JSON.
_CHILD = """
import json, statistics, sys
from benchmarks import scoring_bench as bench
from otel_groundedness.scoring import score
p50s = []
for case in bench.cases():
    score(case.answer, case.evidence, policy=case.policy)
    samples = bench._timings(lambda: score(case.answer, case.evidence, policy=case.policy), case.iterations)
    p50s.append(statistics.median(samples))
print(json.dumps(p50s))
"""


def _export(rev: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "otel_groundedness"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def _p50s(engine_root: Path) -> list[float]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(engine_root), str(ROOT)]))
    out = subprocess.run(
        [sys.executable, "-c", _CHILD], env=env, cwd=engine_root, check=True, capture_output=True, text=True
    ).stdout
    return [float(value) for value in json.loads(out)]


def compare(rev: str) -> None:
    from benchmarks import scoring_bench

    names = [case.name for case in scoring_bench.cases()]
    with tempfile.TemporaryDirectory(prefix="bench-against-") as folder:
        base_root = Path(folder)
        _export(rev, base_root)
        best = {tree: [float("inf")] * len(names) for tree in ("base", "this")}
        for round_number in range(ROUNDS):
            order = ("base", "this") if round_number % 2 == 0 else ("this", "base")
            for tree in order:
                p50s = _p50s(base_root if tree == "base" else ROOT)
                best[tree] = [min(old, new) for old, new in zip(best[tree], p50s, strict=True)]
            print(f"round {round_number + 1}/{ROUNDS} done", flush=True)
    print(f"score() p50, best of {ROUNDS} alternating rounds: {rev} vs this tree")
    print(f"{'case':<46} {rev[:12]:>12} {'this tree':>12} {'ratio':>7}")
    for name, base, this in zip(names, best["base"], best["this"], strict=True):
        verdict = "PASS" if this <= base else "MISS"
        print(f"{name:<46} {base * 1e3:>9.3f} ms {this * 1e3:>9.3f} ms {this / base:>7.2f} {verdict}")
