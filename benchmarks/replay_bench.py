"""Replay memory and throughput on a large recording: peak RSS of ``otel-groundedness replay``, wall time
and turns per second, for each number of worker processes asked for.

The recording is synthesized in the demo's shape (``benchmarks/recording.py``): ``--replay-mb`` MiB of
OTLP JSON lines (default 64, 16 with ``--quick``) or ``--replay-turns`` turns, or an existing file with
``--replay-file``. The replay runs in a subprocess with ``--json``, ``--html`` and ``--out`` (everything
it can write), once per ``--replay-jobs`` value (default ``1``; ``1,2`` compares one process with two
workers, side by side in one run, and checks that every output is the same bytes). Peak RSS is the
largest of the replay and its workers (``ru_maxrss`` from ``wait4``); CPU adds them up. Target: a 1 GiB
recording replays in under 500 MB RSS; two jobs on two cores replay at least 1.7 times as fast as one.
"""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.recording import write_recording
from otel_groundedness.replay.json_stream import iter_items

MIB = 1024 * 1024
RSS_TARGET_MB = 500
SPEEDUP_TARGET = 1.7
OUTPUTS = ("report.json", "report.html", "enriched.jsonl")


@dataclass(frozen=True, slots=True)
class _Run:
    jobs: int
    turns: int
    wall_s: float
    cpu_s: float
    peak_mb: float


def main() -> None:
    given = os.environ.get("BENCH_REPLAY_FILE")
    megabytes = int(os.environ.get("BENCH_REPLAY_MB") or (16 if os.environ.get("BENCH_QUICK") else 64))
    turns = int(os.environ.get("BENCH_REPLAY_TURNS") or 0)
    jobs = [int(value) for value in os.environ.get("BENCH_REPLAY_JOBS", "1").split(",")]
    with tempfile.TemporaryDirectory(prefix="replay-bench-") as scratch:
        work = Path(scratch)
        if given:
            recording = Path(given)
        else:
            recording = work / "recording.jsonl"
            started = time.perf_counter()
            written = write_recording(recording, 0 if turns else megabytes * MIB, target_turns=turns)
            print(
                f"generated {written.bytes / MIB:.0f} MiB, {written.turns} turns, {written.lines} lines "
                f"in {time.perf_counter() - started:.0f} s"
            )
        size_mb = recording.stat().st_size / 1e6
        print(f"replay of {size_mb:.0f} MB with --json --html --out, one run per --jobs value")
        runs = [_replay(recording, work / f"jobs-{count}", count) for count in jobs]
        for run in runs:
            verdict = "PASS" if run.peak_mb < RSS_TARGET_MB else "FAIL"
            print(
                f"--jobs {run.jobs}  {run.turns / run.wall_s:8.1f} turns/s  wall {run.wall_s:7.1f} s  "
                f"CPU {run.cpu_s:7.1f} s  peak RSS {run.peak_mb:4.0f} MB per process "
                f"({run.peak_mb / size_mb:.2f}x the input; target < {RSS_TARGET_MB} MB: {verdict})"
            )
        for run in runs[1:]:
            speedup = runs[0].wall_s / run.wall_s
            verdict = "PASS" if speedup >= SPEEDUP_TARGET or run.jobs == 1 else "FAIL"
            same = all(
                filecmp.cmp(
                    work / f"jobs-{runs[0].jobs}" / name, work / f"jobs-{run.jobs}" / name, shallow=False
                )
                for name in OUTPUTS
            )
            print(
                f"--jobs {run.jobs} vs --jobs {runs[0].jobs}: {speedup:.2f}x the turns/s "
                f"(target >= {SPEEDUP_TARGET}x with 2 jobs on 2 cores: {verdict}); outputs "
                f"{'byte-identical' if same else 'DIFFER'} ({', '.join(OUTPUTS)})"
            )


def _replay(recording: Path, work: Path, jobs: int) -> _Run:
    work.mkdir()
    command = [
        sys.executable, "-m", "otel_groundedness", "replay", str(recording), "--no-progress",
        "--jobs", str(jobs), "--json", str(work / OUTPUTS[0]), "--html", str(work / OUTPUTS[1]),
        "--out", str(work / OUTPUTS[2]),
    ]  # fmt: skip
    with (work / "stderr.txt").open("w+") as stderr:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
        # This child's own peak (its workers' too: it waits for them), not the largest of all children.
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        stderr.seek(0)
        if child.returncode != 0:
            raise SystemExit(f"replay exited {child.returncode}: {stderr.read()[-2000:]}")
    turns = _summary_turns(work / OUTPUTS[0])
    peak_mb = usage.ru_maxrss * 1024 / 1e6  # Linux reports kilobytes
    return _Run(jobs, turns, wall, usage.ru_utime + usage.ru_stime, peak_mb)


def _summary_turns(report: Path) -> int:
    """``summary.turns`` of a JSON report, read without loading it: a report is about 4 KB per turn,
    and a benchmark process grown by it would lend its size to the next replay it starts (a forked
    child's peak RSS counts the parent's pages)."""
    with report.open("rb") as stream:
        for item in iter_items(stream):
            if item.path == ("summary", "turns"):
                return int(item.value)
    raise SystemExit(f"{report}: no summary.turns")


if __name__ == "__main__":
    main()
