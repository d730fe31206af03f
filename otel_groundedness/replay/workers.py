"""Replay on several cores (``--jobs N``): traces split by id over worker processes, merged in order.

Worker ``k`` reads every input, indexes and converts only the traces it owns (``otlp.partition``),
scores and renders them (``replay.rendering``) and sends one result per request position, in batches.
The main process takes batch ``i`` of every worker in turn and merges each position's results by their
keys, so what it writes does not depend on the number of workers or on their timing: ``--jobs 1``,
which runs the same code in process, writes the same bytes. Progress follows the merged positions.

Memory: each worker holds its own open traces, as a one-process replay holds all of them, and a queue
holds at most ``_QUEUED`` batches of ``_BATCH`` positions per worker; the main process holds a batch
per worker while it merges.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
from collections.abc import Generator, Sequence
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

from otel_groundedness.otlp.files import InvalidInputError
from otel_groundedness.otlp.partition import Partition
from otel_groundedness.replay.rendering import RenderOptions, StepRenderer, StepResult, merge
from otel_groundedness.replay.stream import replay_files
from otel_groundedness.replay.trace_index import TraceIndex, index_files
from otel_groundedness.scoring import GroundednessPolicy

_BATCH = 16  # request positions per message: few messages, little waiting at the ends of a run
_QUEUED = 4  # batches a worker may run ahead of the merge
_POLL_S = 1.0  # how often a wait for a batch checks that its worker is still alive
# Below this much input, starting worker processes (an interpreter each) costs more than it saves.
SMALL_INPUT_BYTES = 4 * 1024 * 1024

_Message = tuple[str, Any]


def default_jobs(input_bytes: int) -> int:
    """The cores this process may run on; one for a small input."""
    if input_bytes < SMALL_INPUT_BYTES:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return cores or 1


def in_process(
    paths: Sequence[Path], index: TraceIndex, policy: GroundednessPolicy | None, options: RenderOptions
) -> Generator[StepResult, None, None]:
    """Every position's results, scored here (``--jobs 1``); consumes ``index``."""
    render = StepRenderer(options)
    for step in replay_files(paths, index, policy=policy):
        yield render(step)


def in_workers(
    paths: Sequence[Path], policy: GroundednessPolicy | None, options: RenderOptions, jobs: int
) -> Generator[StepResult, None, None]:
    """Every position's results, scored by ``jobs`` worker processes and merged
    (``InvalidInputError`` when a worker finds bad input; ``RuntimeError`` when one fails)."""
    context = multiprocessing.get_context("spawn")  # no inherited threads or state: the same on every OS
    queues: list[Queue[_Message]] = [context.Queue(_QUEUED) for _ in range(jobs)]
    workers = [
        context.Process(
            target=_work,
            args=(list(paths), policy, options, Partition(number, jobs), queues[number]),
            name=f"otel-groundedness replay worker {number}",
            daemon=True,
        )
        for number in range(jobs)
    ]
    try:
        _start(workers)
        while True:
            batches = [_receive(worker, queue) for worker, queue in zip(workers, queues, strict=True)]
            ended = [batch is None for batch in batches]
            if all(ended):
                return
            if any(ended):
                raise InvalidInputError(
                    "the input changed while it was replayed (workers read it differently)"
                )
            for results in zip(*batches, strict=True):
                yield merge(results)
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
            if worker.pid is not None:
                worker.join()


def _start(workers: Sequence[BaseProcess]) -> None:
    # Started with SIGINT ignored, which they keep: Ctrl-C reaches the main process alone, which stops
    # them; otherwise each worker would print its own KeyboardInterrupt.
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        for worker in workers:
            worker.start()
    finally:
        signal.signal(signal.SIGINT, handler)


def _receive(worker: BaseProcess, messages: Queue[_Message]) -> list[StepResult] | None:
    """The worker's next batch, ``None`` after its last."""
    while True:
        try:
            kind, payload = messages.get(timeout=_POLL_S)
            break
        except queue.Empty:
            if not worker.is_alive() and messages.empty():
                raise RuntimeError(f"{worker.name} stopped (exit code {worker.exitcode})") from None
    if kind == "steps":
        return payload  # type: ignore[no-any-return]
    if kind == "end":
        return None
    if kind == "invalid":
        raise InvalidInputError(payload)
    raise RuntimeError(f"{worker.name}: {payload}")


def _work(
    paths: list[Path],
    policy: GroundednessPolicy | None,
    options: RenderOptions,
    partition: Partition,
    messages: Queue[_Message],
) -> None:
    """A worker's whole life: index, replay and render its partition, sending batches of results."""
    try:
        index = index_files(paths, partition=partition)
        render = StepRenderer(options)
        batch: list[StepResult] = []
        for step in replay_files(paths, index, policy=policy, partition=partition):
            batch.append(render(step))
            if len(batch) == _BATCH:
                messages.put(("steps", batch))
                batch = []
        messages.put(("steps", batch))
        messages.put(("end", None))
    except InvalidInputError as error:
        messages.put(("invalid", str(error)))
    except Exception as error:  # a bug: the main process reports it as one (exit 3)
        messages.put(("failed", f"{type(error).__name__}: {error}"))
