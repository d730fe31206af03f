"""``replay --jobs N``: traces split by id over worker processes, the same bytes in every output.

Each case replays with ``--jobs 1`` (in process) and ``--jobs 4`` (four workers, each owning the traces
whose id is its number modulo 4) and compares the JSON and HTML reports, the enriched spans and
the console output byte for byte.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from benchmarks.recording import write_recording
from otel_groundedness.cli.main import main
from otel_groundedness.otlp.codec import request_from_log_events, request_from_spans
from otel_groundedness.otlp.files import iter_otlp_file, to_otlp_json
from otel_groundedness.otlp.values import MAX_VALUE_DEPTH

from .recording_variants import write_variant

DATA = Path(__file__).resolve().parents[1] / "data" / "otlp"


def _outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: int, inputs: list[Path], *extra: str
) -> tuple[int, dict[str, bytes]]:
    work = tmp_path / f"jobs-{jobs}"
    work.mkdir()
    suffix = ".pb" if "--proto-out" in extra else ".jsonl"
    outputs = {"json": work / "r.json", "html": work / "r.html", "out": work / f"out{suffix}"}
    args = [*map(str, inputs), *(a for a in extra if a != "--proto-out"), "--jobs", str(jobs)]
    for name, path in outputs.items():
        args += [f"--{name}", str(path)]
    capsys.readouterr()
    code = main(["replay", *args, "--no-progress"])
    written = {name: path.read_bytes() for name, path in outputs.items()}
    written["stdout"] = capsys.readouterr().out.replace(str(work), "WORK").encode()
    return code, written


def _same_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str], inputs: list[Path], *extra: str) -> None:
    code_1, one = _outputs(tmp_path, capsys, 1, inputs, *extra)
    code_4, four = _outputs(tmp_path, capsys, 4, inputs, *extra)
    assert code_1 == code_4
    for name in one:
        assert one[name] == four[name], f"{name} differs between --jobs 1 and --jobs 4"
    assert json.loads(one["json"])["summary"]["turns"] > 0


def _shuffled_lines(path: Path, source: Path) -> None:
    """Every span and log record of ``source`` on a line of its own, shuffled: traces spread thin."""
    lines: list[dict[str, Any]] = []
    for chunk in iter_otlp_file(source):
        lines += [to_otlp_json(request_from_spans([span])) for span in chunk.spans]
        lines += [to_otlp_json(request_from_log_events([event])) for event in chunk.log_events]
    random.Random(11).shuffle(lines)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


@pytest.mark.parametrize(
    "recording", ["demo-latest.jsonl", "demo-latest.pb", "demo-legacy.jsonl"], ids=lambda name: name
)
def test_committed_recordings(tmp_path: Path, capsys: pytest.CaptureFixture[str], recording: str) -> None:
    _same_bytes(tmp_path, capsys, [DATA / recording], "--max-contradicted", "0")


def test_traces_spread_over_shuffled_lines_and_protobuf_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spread = tmp_path / "spread.jsonl"
    _shuffled_lines(spread, DATA / "demo-legacy.jsonl")
    _same_bytes(tmp_path, capsys, [spread], "--proto-out")


def test_traces_and_logs_in_two_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    traces, logs = tmp_path / "traces.jsonl", tmp_path / "logs.jsonl"
    records = [chunk for chunk in iter_otlp_file(DATA / "demo-legacy.jsonl")]
    traces.write_text(
        "".join(json.dumps(to_otlp_json(request_from_spans(c.spans))) + "\n" for c in records if c.spans)
    )
    logs.write_text(
        "".join(
            json.dumps(to_otlp_json(request_from_log_events(c.log_events))) + "\n"
            for c in records
            if c.log_events
        )
    )
    _same_bytes(tmp_path, capsys, [traces, logs])


def test_a_generated_recording_of_collector_batches_with_a_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording, earlier = tmp_path / "batches.jsonl", tmp_path / "earlier.jsonl"
    write_recording(recording, 600_000)  # 16 concurrent traces per window, 24 spans per line
    write_variant(recording, earlier, drop_trace=3, edit=(5, "$", "USD "))
    baseline = tmp_path / "baseline.json"
    assert main(["replay", str(earlier), "--json", str(baseline), "--no-progress", "--jobs", "1"]) == 0
    _same_bytes(tmp_path, capsys, [recording], "--baseline", str(baseline), "--max-regressed", "0")
    diff = json.loads((tmp_path / "jobs-4" / "r.json").read_text())["diff"]
    assert diff["new_turns"] == 1 and diff["turns"]


def _deep(depth: int) -> str:
    return (
        '{"kvlistValue": {"values": [{"key": "k", "value": ' * depth + '{"stringValue": "x"}' + "}]}}" * depth
    )


def test_values_cut_in_a_resource_shared_by_several_workers_are_counted_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (DATA / "demo-latest.jsonl").read_text().splitlines()
    traces = json.loads(source[0])
    deep = json.dumps({"key": "deep", "value": "DEEP"})
    for resource_spans in traces["resourceSpans"]:
        resource_spans.setdefault("resource", {}).setdefault("attributes", []).append(json.loads(deep))
        for scope_spans in resource_spans["scopeSpans"]:
            scope_spans.setdefault("scope", {}).setdefault("attributes", []).append(json.loads(deep))
            scope_spans["spans"][0].setdefault("attributes", []).append(json.loads(deep))
    text = json.dumps(traces).replace('"DEEP"', _deep(MAX_VALUE_DEPTH + 2))
    path = tmp_path / "deep.jsonl"
    path.write_text(text + "\n" + "\n".join(source[1:]) + "\n")
    blocks = sum(1 + len(rs["scopeSpans"]) * 2 for rs in traces["resourceSpans"])
    _same_bytes(tmp_path, capsys, [path])
    report = json.loads((tmp_path / "jobs-4" / "r.json").read_text())
    assert report["summary"]["nested_values_cut"] == blocks


def test_invalid_input_found_by_a_worker_exits_2_with_the_same_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (DATA / "demo-latest.jsonl").read_text().splitlines()
    document = json.loads(lines[0])
    spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans[len(spans) // 2]["startTimeUnixNano"] = "soon"  # passes the index pass, fails the parse
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(document) + "\n" + "\n".join(lines[1:]) + "\n")
    errors = []
    for jobs in ("1", "4"):
        assert main(["replay", str(path), "--no-progress", "--jobs", jobs]) == 2
        errors.append(capsys.readouterr().err)
    assert errors[0] == errors[1] and "bad.jsonl:1" in errors[0]


def test_jobs_must_be_a_positive_integer(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(DATA / "demo-latest.jsonl"), "--jobs", "0"])
    assert exit_info.value.code == 2
    assert "--jobs" in capsys.readouterr().err
