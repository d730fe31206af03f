"""``--pace``: the demo spaces its turns evenly in time instead of running them back to back."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from otel_groundedness.demo import DemoOptions, run_demo
from otel_groundedness.demo.runner import DemoError
from otel_groundedness.otlp.files import iter_otlp_file

TURNS = 5
PACE = 5.0  # turns per second: the last turn starts 0.8 s after the first
# The first turn starts a moment after the schedule's zero; later ones are measured from that start.
TOLERANCE_S = 0.05


def test_turns_start_on_the_paced_schedule(tmp_path: Path) -> None:
    recording = tmp_path / "paced.jsonl"
    options = DemoOptions(
        turns=TURNS, pace=PACE, seed=3, prometheus_port=0, live=False, html=None, otlp_file=recording
    )
    summary = run_demo(options, console=Console(file=io.StringIO(), width=120))
    assert summary.turns_scored == TURNS
    starts = sorted(
        span.start_time_ns / 1e9
        for chunk in iter_otlp_file(recording)
        for span in chunk.spans
        if span.name.startswith("invoke_agent ")
    )
    assert len(starts) == TURNS
    for index, start in enumerate(starts):
        assert start - starts[0] >= index / PACE - TOLERANCE_S, [round(s - starts[0], 3) for s in starts]


@pytest.mark.parametrize("pace", [-1.0, float("nan"), float("inf")])
def test_unusable_pace_is_refused(pace: float) -> None:
    with pytest.raises(DemoError, match="pace must be"):
        run_demo(DemoOptions(turns=1, pace=pace, prometheus_port=0, live=False, html=None))
