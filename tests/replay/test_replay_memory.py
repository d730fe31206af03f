"""``replay`` memory is bounded by the traces in flight, not by the size of the recording.

The recording is larger than the address space the replay may use, so a replay that held every
record (as it did before it streamed: about 1.1x the file for this shape, plus the interpreter)
cannot pass; the streaming one needs the interpreter and a few lines' worth of traces.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.recording import write_recording

MIB = 1024 * 1024
RECORDING_BYTES = 96 * MIB
# The interpreter with protobuf, rich and jinja2 loaded maps about 45 MiB; the rest is headroom.
ADDRESS_SPACE_LIMIT = 80 * MIB


def _limit_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS bounds the address space on Linux")
def test_a_recording_larger_than_the_address_space_replays(tmp_path: Path) -> None:
    recording = tmp_path / "large.jsonl"
    # Padding spans make many bytes for few turns: the file is large, the test stays short.
    written = write_recording(recording, RECORDING_BYTES, padding_bytes=64 * 1024)
    assert written.bytes > ADDRESS_SPACE_LIMIT
    report, enriched = tmp_path / "report.json", tmp_path / "enriched.jsonl"
    completed = subprocess.run(
        [sys.executable, "-m", "otel_groundedness", "replay", str(recording), "--no-progress",
         "--json", str(report), "--out", str(enriched), "--html", str(tmp_path / "report.html")],
        capture_output=True, text=True, timeout=600, check=False, preexec_fn=_limit_address_space,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-2000:]
    summary = json.loads(report.read_text())["summary"]
    assert summary["turns"] == written.turns == summary["traces"]
    assert enriched.stat().st_size > written.bytes
