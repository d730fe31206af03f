"""Scoring throughput with two threads against one: the engine releases the GIL for its work, so
two threads on two cores should score about twice as many turns (target ≥ 1.7×). Case (e) of the
scoring benchmark (4 KB answer vs 10×4 KB number-dense JSON)."""

from __future__ import annotations

import os
import threading
import time

from benchmarks.scoring_bench import cases
from otel_groundedness.scoring import score

QUICK = os.environ.get("BENCH_QUICK") == "1"
TARGET = 1.7


def _throughput(threads: int, calls: int) -> float:
    case = next(case for case in cases() if case.name.startswith("(e)"))

    def work() -> None:
        for _ in range(calls):
            score(case.answer, case.evidence, policy=case.policy)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return threads * calls / (time.perf_counter() - started)


def main() -> None:
    # Each measurement lasts a fraction of a second on a shared machine: one and two threads
    # alternate for several rounds, and each side's best round is compared.
    calls, rounds = (100, 5) if QUICK else (400, 7)
    _throughput(1, 5)  # warm-up
    one = two = 0.0
    for _ in range(rounds):
        one = max(one, _throughput(1, calls))
        two = max(two, _throughput(2, calls))
    ratio = two / one
    verdict = "PASS" if ratio >= TARGET else "MISS"
    print(
        f"score() case (e), {os.cpu_count()} cores, best of {rounds} alternating rounds: "
        f"1 thread {one:,.0f} calls/s, 2 threads {two:,.0f} calls/s, ratio {ratio:.2f} (>= {TARGET}) "
        f"{verdict}"
    )


if __name__ == "__main__":
    main()
