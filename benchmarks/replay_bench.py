"""Replay memory and throughput on a large recording: peak RSS of ``otel-groundedness replay``, wall time
and turns per second.

The recording is synthesized in the demo's shape (``benchmarks/recording.py``): ``--replay-mb`` MiB of
OTLP JSON lines (default 64, 16 with ``--quick``), or an existing file with ``--replay-file``. The replay
runs in a subprocess with ``--json``, ``--html`` and ``--out`` (everything it can write); its peak RSS is
the child's own ``ru_maxrss`` from ``wait4``. Target: a 1 GiB recording replays in under 500 MB RSS.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.recording import write_recording

MIB = 1024 * 1024
RSS_TARGET_MB = 500


def main() -> None:
    given = os.environ.get("BENCH_REPLAY_FILE")
    megabytes = int(os.environ.get("BENCH_REPLAY_MB") or (16 if os.environ.get("BENCH_QUICK") else 64))
    with tempfile.TemporaryDirectory(prefix="replay-bench-") as scratch:
        work = Path(scratch)
        if given:
            recording = Path(given)
        else:
            recording = work / "recording.jsonl"
            started = time.perf_counter()
            written = write_recording(recording, megabytes * MIB)
            print(
                f"generated {written.bytes / MIB:.0f} MiB, {written.turns} turns, {written.lines} lines "
                f"in {time.perf_counter() - started:.0f} s"
            )
        _replay(recording, work)


def _replay(recording: Path, work: Path) -> None:
    report = work / "report.json"
    command = [
        sys.executable, "-m", "otel_groundedness", "replay", str(recording), "--no-progress",
        "--json", str(report), "--html", str(work / "report.html"), "--out", str(work / "enriched.jsonl"),
    ]  # fmt: skip
    with (work / "stderr.txt").open("w+") as stderr:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak, not the largest of all children
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        stderr.seek(0)
        if child.returncode != 0:
            raise SystemExit(f"replay exited {child.returncode}: {stderr.read()[-2000:]}")
    turns = json.loads(report.read_text())["summary"]["turns"]
    size_mb = recording.stat().st_size / 1e6
    peak_mb = usage.ru_maxrss * 1024 / 1e6  # Linux reports kilobytes
    verdict = "PASS" if peak_mb < RSS_TARGET_MB else "FAIL"
    print(f"replay of {size_mb:.0f} MB ({turns} turns) with --json --html --out")
    ratio = peak_mb / size_mb
    print(
        f"peak RSS          {peak_mb:.0f} MB ({ratio:.2f}x the input; target < {RSS_TARGET_MB} MB: {verdict})"
    )
    print(f"wall time         {wall:.1f} s ({size_mb / wall:.2f} MB/s)")
    print(f"turns/s           {turns / wall:.1f} (CPU {usage.ru_utime + usage.ru_stime:.1f} s)")


if __name__ == "__main__":
    main()
