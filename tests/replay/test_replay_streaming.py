"""``replay`` streams its input trace by trace and still gives the results of an all-in-memory replay.

The reference is ``replay()`` over every record of the input at once (what the command did before it
streamed): the JSON report, the enriched spans and the log events must be the same, also when the
spans of a trace are spread over many lines, in any order, or over several files.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from statistics import fmean
from typing import Any

import pytest

from otel_groundedness.cli.main import main
from otel_groundedness.evaluator import describe
from otel_groundedness.otlp.codec import request_from_log_events, request_from_spans
from otel_groundedness.otlp.files import iter_otlp_file, to_otlp_json
from otel_groundedness.records import LogEventRecord, SpanRecord
from otel_groundedness.replay.in_memory import replay
from otel_groundedness.replay.stream import replay_files
from otel_groundedness.replay.summary import LABELS
from otel_groundedness.replay.trace_index import index_files
from otel_groundedness.replay.turn_result import turn_entry
from otel_groundedness.scoring import GroundednessPolicy

DATA = Path(__file__).resolve().parents[1] / "data" / "otlp"
RECORDINGS = sorted(DATA.glob("demo-*.*"))


def _records(*paths: Path) -> tuple[list[SpanRecord], list[LogEventRecord]]:
    chunks = [chunk for path in paths for chunk in iter_otlp_file(path)]
    return [s for c in chunks for s in c.spans], [e for c in chunks for e in c.log_events]


def _expected_report(spans: list[SpanRecord], log_events: list[LogEventRecord]) -> dict[str, Any]:
    """The JSON report of an all-in-memory replay, summed up here independently of the command."""
    result = replay(spans, log_events)
    reports = [scored.report for scored in result.scored]

    def totals(selected: list[Any]) -> dict[str, Any]:
        scores = [report.score for report in selected if report.score is not None]
        labels = Counter(report.label for report in selected)
        return {
            "turns": len(selected),
            "scored_turns": len(scores),
            "mean_score": fmean(scores) if scores else None,
            "labels": {label: labels[label] for label in LABELS},
            "contradicted_atoms": sum(len(report.contradicted) for report in selected),
            "unsupported_atoms": sum(len(report.unsupported) for report in selected),
        }

    groups: dict[tuple[str, str], list[Any]] = {}
    for scored in result.scored:
        context = scored.turn.context
        key = (context.response_model or context.request_model or "-", context.agent_name or "-")
        groups.setdefault(key, []).append(scored.report)
    return {
        "report_version": 2,
        "evaluator": dataclasses.asdict(describe(GroundednessPolicy())),
        "summary": {
            **totals(reports),
            "spans": len(spans),
            "traces": result.traces,
            "skipped": dict(sorted(result.skipped.items())),
            "nested_values_cut": 0,
        },
        "groups": [{"model": m, "agent": a, **totals(r)} for (m, a), r in sorted(groups.items())],
        "gates": {"passed": True, "checks": []},
        "turns": [turn_entry(scored) for scored in result.scored],
    }


def _replay_command(tmp_path: Path, *paths: Path) -> tuple[str, list[SpanRecord], list[LogEventRecord]]:
    report, enriched = tmp_path / "report.json", tmp_path / "enriched.jsonl"
    args = ["replay", *map(str, paths), "--json", str(report), "--out", str(enriched), "--no-progress"]
    assert main(args) == 0
    spans, log_events = _records(enriched)
    return report.read_text(), spans, log_events


@pytest.mark.parametrize("recording", RECORDINGS, ids=lambda path: path.name)
def test_each_recording_gives_exactly_the_in_memory_results(tmp_path: Path, recording: Path) -> None:
    spans, log_events = _records(recording)
    text, enriched, events_out = _replay_command(tmp_path, recording)
    # Byte for byte: the streamed JSON report is laid out as json.dumps(indent=2) lays out the whole.
    assert text == json.dumps(_expected_report(spans, log_events), indent=2)
    assert enriched == replay(spans, log_events).spans
    assert events_out == log_events


def _write_lines(path: Path, spans: list[SpanRecord], log_events: list[LogEventRecord]) -> None:
    """One span or log record per line (as a Collector that batches nothing would write them)."""
    lines = [to_otlp_json(request_from_spans([span])) for span in spans]
    lines += [to_otlp_json(request_from_log_events([event])) for event in log_events]
    random.Random(7).shuffle(lines)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _by_turn(text: str) -> dict[str, Any]:
    report = json.loads(text)
    report["turns"] = sorted(report["turns"], key=lambda turn: (turn["trace_id"], turn["span_id"]))
    return report


def _key(record: SpanRecord | LogEventRecord) -> str:
    return repr(record)  # several log events of a span may share ids and a timestamp


@pytest.mark.parametrize("recording", RECORDINGS, ids=lambda path: path.name)
def test_traces_spread_over_many_shuffled_lines_stay_whole(tmp_path: Path, recording: Path) -> None:
    spans, log_events = _records(recording)
    split = tmp_path / "split.jsonl"
    _write_lines(split, spans, log_events)
    text, enriched, events_out = _replay_command(tmp_path, split)
    assert _by_turn(text) == _by_turn(json.dumps(_expected_report(*_records(split))))
    assert sorted(enriched, key=_key) == sorted(replay(spans, log_events).spans, key=_key)
    assert sorted(events_out, key=_key) == sorted(log_events, key=_key)


def test_traces_and_logs_in_separate_files_are_joined(tmp_path: Path) -> None:
    spans, log_events = _records(DATA / "demo-legacy.jsonl")
    traces_file, logs_file = tmp_path / "traces.jsonl", tmp_path / "logs.jsonl"
    _write_lines(traces_file, spans, [])
    _write_lines(logs_file, [], log_events)
    text, _, _ = _replay_command(tmp_path, traces_file, logs_file)
    expected = _expected_report(*_records(traces_file, logs_file))
    assert _by_turn(text) == _by_turn(json.dumps(expected))
    assert expected["summary"]["turns"] == 10


def test_a_trace_is_scored_as_soon_as_its_last_line_is_read(tmp_path: Path) -> None:
    spans, _ = _records(DATA / "demo-latest.jsonl")
    traces = list(dict.fromkeys(span.trace_id for span in spans))
    first, second = traces[0], traces[1]
    # Line 1: the first trace and half of the second; line 2: the rest of the second; line 3: the others.
    second_spans = [span for span in spans if span.trace_id == second]
    lines = [
        [span for span in spans if span.trace_id == first] + second_spans[:2],
        second_spans[2:],
        [span for span in spans if span.trace_id not in (first, second)],
    ]
    path = tmp_path / "three-lines.jsonl"
    path.write_text("".join(json.dumps(to_otlp_json(request_from_spans(line))) + "\n" for line in lines))
    index = index_files([path])
    released = [[trace.trace.trace_id for trace in step.traces] for step in replay_files([path], index)]
    assert released[0] == [first]
    assert released[1] == [second]
    assert sorted(released[2]) == sorted(traces[2:])
    assert index.spans == len(spans)
