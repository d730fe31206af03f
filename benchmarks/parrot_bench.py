"""``score()`` on the parrot scorer's benchmark shapes, side by side with the parrot scorer itself.

The shapes (answer and evidence per case) are issue 18's, kept in ``benchmarks/data/bench_shapes.json``
(``BENCH_SHAPES`` names another file). The parrot scorer (the seed's reference
implementation) never enters this repository: set ``PARROT_PATH`` to a folder from which
``import parrot.security.groundedness`` works (a checkout of ``phenobarbital/ai-parrot`` at
``9695a52`` with its ``parrot.models.basic.ToolCall``), and both scorers are timed in subprocesses,
alternating round by round; the ratio is quoted from that one run (best p50 of each). Without it,
only this engine is timed. Target: ≥ 20× faster on every shape.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHAPES = Path(os.environ.get("BENCH_SHAPES", ROOT / "benchmarks" / "data" / "bench_shapes.json"))
QUICK = os.environ.get("BENCH_QUICK") == "1"
ROUNDS = 3
TARGET = 20.0

# Each child times every shape and prints p50s (seconds) as JSON. Parrot's call is what a user of
# it runs per turn: build the evidence index from the turn's tool calls, then score.
_OURS = """
import json, statistics, sys, time
from otel_groundedness.scoring import score
shapes, iterations = json.load(open(sys.argv[1])), int(sys.argv[2])
p50s = []
for shape in shapes:
    answer, evidence = shape["answer"], shape["evidence"]
    score(answer, evidence)
    samples = []
    for _ in range(iterations):
        started = time.perf_counter()
        score(answer, evidence)
        samples.append(time.perf_counter() - started)
    p50s.append(statistics.median(samples))
print(json.dumps(p50s))
"""
_PARROT = """
import json, statistics, sys, time
from parrot.models.basic import ToolCall
from parrot.security.groundedness import EvidenceIndex, GroundednessPolicy, GroundednessScorer
shapes, iterations = json.load(open(sys.argv[1])), int(sys.argv[2])
policy = GroundednessPolicy()
scorer = GroundednessScorer(policy)
p50s = []
for shape in shapes:
    answer = shape["answer"]
    calls = [ToolCall(id=str(i), name="tool", arguments={}, result=item)
             for i, item in enumerate(shape["evidence"])]
    def run():
        return scorer.score(answer, EvidenceIndex.from_tool_calls(calls, policy))
    run()
    samples = []
    for _ in range(iterations):
        started = time.perf_counter()
        run()
        samples.append(time.perf_counter() - started)
    p50s.append(statistics.median(samples))
print(json.dumps(p50s))
"""


def _p50s(code: str, path: str, iterations: int) -> list[float]:
    env = dict(os.environ, PYTHONPATH=path)
    out = subprocess.run(
        [sys.executable, "-c", code, str(SHAPES), str(iterations)],
        env=env,
        cwd=path,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [float(value) for value in json.loads(out)]


def main() -> None:
    if not SHAPES.is_file():
        print(f"no benchmark shapes at {SHAPES} (set BENCH_SHAPES): nothing to time")
        return
    names = [shape["id"] for shape in json.loads(SHAPES.read_text())]
    iterations = 20 if QUICK else 100
    parrot = os.environ.get("PARROT_PATH")
    contenders = {"ours": (_OURS, str(ROOT))}
    if parrot:
        contenders["parrot"] = (_PARROT, parrot)
    best = {name: [float("inf")] * len(names) for name in contenders}
    for round_number in range(ROUNDS):
        order = list(contenders) if round_number % 2 == 0 else list(reversed(contenders))
        for name in order:
            code, path = contenders[name]
            best[name] = [min(a, b) for a, b in zip(best[name], _p50s(code, path, iterations), strict=True)]
    print(f"score() on the parrot shapes, p50, best of {ROUNDS} alternating rounds ({iterations} calls each)")
    if not parrot:
        print("(PARROT_PATH unset: the parrot scorer is not timed)")
    for position, name in enumerate(names):
        ours = best["ours"][position]
        row = f"{name:<34} ours {ours * 1e3:>8.3f} ms"
        if parrot:
            theirs = best["parrot"][position]
            ratio = theirs / ours
            verdict = "PASS" if ratio >= TARGET else "MISS"
            row += f"  parrot {theirs * 1e3:>8.3f} ms  {ratio:>6.1f}x faster (>= {TARGET:g}x) {verdict}"
        print(row)
    print(f"geometric mean p50 (ours): {statistics.geometric_mean(best['ours']) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
