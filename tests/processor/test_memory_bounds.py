"""The queue and the pairing buffer are real memory bounds: checked by bytes queued and under RLIMIT_AS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_groundedness.telemetry import names
from tests.processor.conftest import GROUNDED_ANSWER, PipelineFactory, emit_chat
from tests.processor.test_invariants import GateProcessor

ROOT = Path(__file__).resolve().parents[2]


def test_queued_bytes_are_capped_and_the_rest_leaves_unscored_at_once(make_pipeline: PipelineFactory) -> None:
    exporter = InMemorySpanExporter()
    gate = GateProcessor(SimpleSpanProcessor(exporter))
    pipeline = make_pipeline(gate, max_queue_bytes=1024 * 1024)
    emit_chat(pipeline.tracer, GROUNDED_ANSWER, response_id="first")
    assert gate.entered.wait(10)
    padding = " Details: " + "x" * 300_000
    for index in range(10):
        emit_chat(pipeline.tracer, GROUNDED_ANSWER + padding, response_id=f"big{index}")
    # About 300 KB each: three fit in 1 MiB, the other seven go out at once, unscored and counted.
    assert pipeline.counter(names.METRIC_QUEUE_DROPPED.name) == 7
    assert len(exporter.get_finished_spans()) == 7
    gate.opened.set()
    pipeline.flush()
    assert len(exporter.get_finished_spans()) == 11


def test_max_queue_bytes_has_an_environment_twin(
    make_pipeline: PipelineFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OTEL_GROUNDEDNESS_MAX_QUEUE_BYTES", "12345")
    assert make_pipeline().processor.settings.max_queue_bytes == 12345


def test_buffer_bytes_bound_memory_under_an_address_space_limit() -> None:
    # 400 MB over the child's baseline: less than the answers or held spans it sends would need.
    env = {**os.environ, "MALLOC_ARENA_MAX": "2", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "tests.processor.bounded_memory_child", "400"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    counts = json.loads(result.stdout.strip().splitlines()[-1])
    assert counts["seen"] == counts["sent"]
    assert counts["errors"] == 0
