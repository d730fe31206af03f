"""Scoring throughput with two threads against one: the engine releases the GIL for its work, so
two threads on two cores should score about twice as many turns (target ≥ 1.7×). Case (e) of the
scoring benchmark (4 KB answer vs 10×4 KB number-dense JSON).

The machines are shared virtual cores whose speed swings from second to second, and two busy cores
often run slower each than one: the same measurement with two processes (no GIL at all) is taken
in the same run, so a ratio can be read against what the machine gave at that moment.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from benchmarks.scoring_bench import Case, cases
from otel_groundedness.scoring import score

QUICK = os.environ.get("BENCH_QUICK") == "1"
TARGET = 1.7


def _case() -> Case:
    return next(case for case in cases() if case.name.startswith("(e)"))


def _calls(case: Case, calls: int) -> None:
    for _ in range(calls):
        score(case.answer, case.evidence, policy=case.policy)


def threads_throughput(case: Case, workers: int, calls: int) -> float:
    """Calls per second of ``workers`` threads scoring ``calls`` each, from the first start to the
    last join."""
    threads = [threading.Thread(target=_calls, args=(case, calls)) for _ in range(workers)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return workers * calls / (time.perf_counter() - started)


def _process(case: Case, calls: int, ready: Barrier, go: Barrier, finished: Queue[float]) -> None:
    _calls(case, 5)  # each forked process warms its own allocator
    ready.wait()
    go.wait()
    _calls(case, calls)
    finished.put(time.perf_counter())  # the monotonic clock is the machine's: comparable across processes


def processes_throughput(case: Case, workers: int, calls: int) -> float:
    """The same with ``workers`` forked processes, released together once all are warm: the
    machine's own ceiling, with no GIL to share."""
    context = multiprocessing.get_context("fork")  # the case is inherited, not rebuilt per process
    ready, go = context.Barrier(workers + 1), context.Barrier(workers + 1)
    finished: Queue[float] = context.Queue()
    processes = [
        context.Process(target=_process, args=(case, calls, ready, go, finished)) for _ in range(workers)
    ]
    for process in processes:
        process.start()
    ready.wait()
    started = time.perf_counter()
    go.wait()
    # Each process's own finishing time: joining would also count its exit.
    ended = max(finished.get(timeout=600) for _ in processes)
    for process in processes:
        process.join()
    if any(process.exitcode != 0 for process in processes):
        raise RuntimeError("a benchmark process failed")
    return workers * calls / (ended - started)


def best_ratio(measure: Callable[[int], float], rounds: int) -> tuple[float, float]:
    """Each side's best calls/s over ``rounds`` alternating rounds of one and two workers."""
    one = two = 0.0
    for _ in range(rounds):
        one = max(one, measure(1))
        two = max(two, measure(2))
    return one, two


def main() -> None:
    # Each round lasts a fraction of a second: one and two workers alternate for many rounds and
    # each side's best round is compared, for threads and then for processes.
    calls, rounds = (100, 12) if QUICK else (400, 12)
    case = _case()
    _calls(case, 5)  # warm-up
    one, two = best_ratio(lambda workers: threads_throughput(case, workers, calls), rounds)
    solo, pair = best_ratio(lambda workers: processes_throughput(case, workers, calls), rounds)
    ratio, ceiling = two / one, pair / solo
    verdict = "PASS" if ratio >= TARGET else "MISS"
    print(
        f"score() case (e), {os.cpu_count()} cores, best of {rounds} alternating rounds of {calls} calls: "
        f"1 thread {one:,.0f} calls/s, 2 threads {two:,.0f} calls/s, ratio {ratio:.2f} (>= {TARGET}) "
        f"{verdict}; the machine in the same run: 1 process {solo:,.0f} calls/s, 2 processes "
        f"{pair:,.0f} calls/s, ratio {ceiling:.2f} (threads reach {ratio / ceiling:.0%} of it)"
    )


if __name__ == "__main__":
    main()
