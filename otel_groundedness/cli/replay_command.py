"""``otel-groundedness replay``: score recorded OTLP files offline and gate a release on the result.

Exit codes: 0 scored (and every gate passed), 1 a gate failed, 2 invalid input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from otel_groundedness.cli.argtypes import unit_interval
from otel_groundedness.records import LogEventRecord, SpanRecord
from otel_groundedness.replay.engine import ReplayResult, replay
from otel_groundedness.replay.gates import GateOutcome, check_gates
from otel_groundedness.replay.otlp_files import InvalidInputError, iter_otlp_file, write_otlp_file
from otel_groundedness.replay.summary import LABELS, Totals, by_model_and_agent, totals, turn_entry
from otel_groundedness.report.html_report import Table as HtmlTable
from otel_groundedness.report.html_report import write_html
from otel_groundedness.scoring import GroundednessPolicy

HELP = (
    "Score recorded OTLP traces (Collector file exporter JSON lines or protobuf) with the processor's engine."
)
# Below this much input the run is over before a progress bar would be readable.
PROGRESS_MIN_BYTES = 1024 * 1024
_PIPED_WIDTH = 132
_GROUP_COLUMNS = ("model", "agent", "turns", "mean score", *LABELS, "contradicted", "unsupported")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="+", type=Path, metavar="FILE", help="OTLP JSON lines or protobuf file"
    )
    parser.add_argument("--policy", type=Path, metavar="FILE", help="scoring policy as a JSON object")
    parser.add_argument("--out", type=Path, metavar="PATH", help="write the enriched spans (and logs) here")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report here")
    parser.add_argument("--html", type=Path, metavar="PATH", help="write the HTML report here")
    parser.add_argument(
        "--fail-under", type=unit_interval, metavar="SCORE", help="exit 1 if the mean score is lower"
    )
    parser.add_argument(
        "--max-contradicted",
        type=_non_negative_int,
        metavar="N",
        help="exit 1 if more atoms are contradicted",
    )
    parser.add_argument("--no-progress", action="store_true", help="never show progress bars")


def run(args: argparse.Namespace) -> int:
    console = wide_console()
    progress_console = Console(stderr=True)
    try:
        policy = _load_policy(args.policy) if args.policy else None
        spans, log_events = _read_inputs(
            args.files, show_progress=not args.no_progress, console=progress_console
        )
    except InvalidInputError as error:
        print(f"otel-groundedness replay: {error}", file=sys.stderr)
        return 2
    if not spans:
        print("otel-groundedness replay: no spans found in the input files", file=sys.stderr)
        return 2

    with _progress(progress_console, enabled=not args.no_progress and len(spans) > 10_000) as advance:
        result = replay(spans, log_events, policy=policy, on_trace=advance)
    overall = totals(result.scored)
    gates = check_gates(overall, fail_under=args.fail_under, max_contradicted=args.max_contradicted)

    _print_summary(console, result, overall, gates)
    if args.out:
        write_otlp_file(args.out, result.spans, log_events)
        console.print(f"enriched spans: {args.out}", highlight=False)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(_json_report(result, overall, gates), indent=2), encoding="utf-8")
        console.print(f"JSON report: {args.json}", highlight=False)
    if args.html:
        write_html(
            args.html,
            [turn_entry(scored) for scored in result.scored],
            title="Groundedness replay",
            subtitle=", ".join(str(path) for path in args.files),
            summary=_summary_pairs(result, overall),
            tables=[HtmlTable("By model and agent", _GROUP_COLUMNS, _group_rows(result))],
        )
        console.print(f"HTML report: {args.html}", highlight=False)
    return 0 if gates.passed else 1


def wide_console() -> Console:
    """Stdout console; when piped (CI logs) wide enough for the summary tables instead of 80 columns."""
    console = Console()
    return console if console.is_terminal else Console(width=_PIPED_WIDTH)


def _load_policy(path: Path) -> GroundednessPolicy:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise InvalidInputError(f"{path}: cannot read policy: {error.strerror or error}") from error
    except json.JSONDecodeError as error:
        raise InvalidInputError(f"{path}: policy is not JSON ({error})") from error
    if not isinstance(data, dict):
        raise InvalidInputError(f"{path}: policy must be a JSON object")
    try:
        return GroundednessPolicy.from_dict(data)
    except ValueError as error:
        raise InvalidInputError(f"{path}: invalid policy: {error}") from error


def _read_inputs(
    paths: Sequence[Path], *, show_progress: bool, console: Console
) -> tuple[list[SpanRecord], list[LogEventRecord]]:
    for path in paths:
        if not path.is_file():
            raise InvalidInputError(f"{path}: no such file")
    total = sum(path.stat().st_size for path in paths)
    spans: list[SpanRecord] = []
    log_events: list[LogEventRecord] = []
    enabled = show_progress and total >= PROGRESS_MIN_BYTES
    with Progress(
        TextColumn("reading"), BarColumn(), DownloadColumn(), TimeRemainingColumn(),
        console=console, transient=True, disable=not enabled,
    ) as progress:  # fmt: skip
        task = progress.add_task("read", total=total)
        done = 0
        for path in paths:
            for chunk in iter_otlp_file(path):
                spans.extend(chunk.spans)
                log_events.extend(chunk.log_events)
                progress.update(task, completed=done + chunk.end_offset)
            done += path.stat().st_size
    return spans, log_events


@contextmanager
def _progress(console: Console, *, enabled: bool) -> Iterator[Callable[[], None]]:
    with Progress(
        TextColumn("scoring"), BarColumn(), MofNCompleteColumn(), TextColumn("traces"),
        console=console, transient=True, disable=not enabled,
    ) as progress:  # fmt: skip
        task = progress.add_task("score", total=None)
        yield lambda: progress.advance(task)


def _group_rows(result: ReplayResult) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for model, agent, group in by_model_and_agent(result.scored):
        mean = group.mean_score
        rows.append(
            [model, agent, group.turns, "-" if mean is None else f"{mean:.3f}",
             *(group.labels[label] for label in LABELS), group.contradicted, group.unsupported]
        )  # fmt: skip
    return rows


def _summary_pairs(result: ReplayResult, overall: Totals) -> list[tuple[str, Any]]:
    mean = overall.mean_score
    pairs: list[tuple[str, Any]] = [
        ("spans", len(result.spans)),
        ("traces", result.traces),
        ("turns", overall.turns),
        ("turns with a score", len(overall.scores)),
        ("mean score", "-" if mean is None else f"{mean:.3f}"),
        ("contradicted atoms", overall.contradicted),
        ("unsupported atoms", overall.unsupported),
    ]
    if result.skipped:
        pairs.append(("skipped", ", ".join(f"{k} {v}" for k, v in sorted(result.skipped.items()))))
    return pairs


def _print_summary(console: Console, result: ReplayResult, overall: Totals, gates: GateOutcome) -> None:
    table = Table(title="Groundedness by model and agent")
    for column in ("model", "agent", "turns", "mean score", "labels", "contradicted", "unsupported"):
        table.add_column(column, justify="left" if column in ("model", "agent", "labels") else "right")
    for model, agent, group in by_model_and_agent(result.scored):
        mean = group.mean_score
        labels = ", ".join(f"{label} {group.labels[label]}" for label in LABELS if group.labels[label])
        table.add_row(
            model, agent, str(group.turns), "-" if mean is None else f"{mean:.3f}",
            labels, str(group.contradicted), str(group.unsupported),
        )  # fmt: skip
    console.print(table)
    console.print(
        ", ".join(f"{name}: {value}" for name, value in _summary_pairs(result, overall)), highlight=False
    )
    for line in gates.lines:
        console.print(line, style="green" if line.startswith("PASS") else "bold red", highlight=False)


def _json_report(result: ReplayResult, overall: Totals, gates: GateOutcome) -> dict[str, Any]:
    return {
        "summary": {
            **overall.to_dict(),
            "spans": len(result.spans),
            "traces": result.traces,
            "skipped": dict(sorted(result.skipped.items())),
        },
        "groups": [
            {"model": model, "agent": agent, **group.to_dict()}
            for model, agent, group in by_model_and_agent(result.scored)
        ],
        "gates": {"passed": gates.passed, "checks": list(gates.lines)},
        "turns": [turn_entry(scored) for scored in result.scored],
    }


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0: {text!r}")
    return value
