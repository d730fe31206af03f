"""``otel-groundedness replay``: score recorded OTLP files offline and gate a release on the result,
absolutely or against the report of a previous run (``--baseline``).

Exit codes: 0 scored (and every gate passed), 1 a gate failed, 2 invalid input (a baseline too) or an
unusable output path (found before any scoring where it can be). The input is read twice, streaming:
once to index where each trace ends, once to score each trace as soon as it is whole
(``replay.trace_index``).
"""

from __future__ import annotations

import argparse
import contextlib
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from otel_groundedness.cli.argtypes import unit_interval
from otel_groundedness.cli.console import PipeSafeConsole, wide_console
from otel_groundedness.cli.errors import EXIT_GATE_FAILED, CliError
from otel_groundedness.cli.replay_outputs import ReplayOutputs, diff_lines, summary_pairs
from otel_groundedness.evaluator import describe
from otel_groundedness.otlp.files import InvalidInputError
from otel_groundedness.replay.baseline import Baseline
from otel_groundedness.replay.diff import BaselineDiff
from otel_groundedness.replay.gates import GateLimits, GateOutcome, check_gates
from otel_groundedness.replay.summary import LABELS, Summary
from otel_groundedness.replay.trace_index import index_files
from otel_groundedness.replay.workers import default_jobs, in_process, in_workers
from otel_groundedness.scoring import GroundednessPolicy

HELP = (
    "Score recorded OTLP traces (Collector file exporter JSON lines or protobuf) with the processor's engine."
)
# Below this much input the run is over before a progress bar would be readable.
PROGRESS_MIN_BYTES = 1024 * 1024


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
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="REPORT",
        help="compare with this earlier JSON report (--json) turn by turn",
    )
    parser.add_argument(
        "--max-regressed",
        type=_non_negative_int,
        metavar="N",
        help="with --baseline: exit 1 if more turns scored lower than in the baseline",
    )
    parser.add_argument(
        "--max-score-drop",
        type=unit_interval,
        metavar="X",
        help="with --baseline: exit 1 if the mean score fell by more, over turns scored in both",
    )
    parser.add_argument(
        "--max-new-contradicted",
        type=_non_negative_int,
        metavar="N",
        help="with --baseline: exit 1 if more atoms are contradicted that were not before",
    )
    parser.add_argument(
        "--jobs",
        type=_positive_int,
        metavar="N",
        help="score in N processes, traces split by id (default: the number of cores; 1 for inputs "
        "under 4 MiB); outputs are the same for every N",
    )
    parser.add_argument("--no-progress", action="store_true", help="never show progress bars")


def run(args: argparse.Namespace) -> int:
    limits = GateLimits(
        args.fail_under, args.max_contradicted, args.max_regressed, args.max_score_drop,
        args.max_new_contradicted,
    )  # fmt: skip
    if args.baseline is None and limits.baseline_gates():
        raise CliError(f"{', '.join(limits.baseline_gates())} needs --baseline REPORT")
    policy = GroundednessPolicy.from_file(args.policy) if args.policy else None
    total = _input_bytes(args.files)
    evaluator = describe(policy or GroundednessPolicy())
    with contextlib.ExitStack() as stack:
        diff = None if args.baseline is None else BaselineDiff(_baseline(args.baseline, stack), evaluator)
        outputs = ReplayOutputs(evaluator, out=args.out, json=args.json, html=args.html, diff=diff)
        try:
            summary, gates = _replay(args, policy, outputs, total, limits, diff)
            written = outputs.finish(summary, gates, subtitle=", ".join(map(str, args.files)))
        except InvalidInputError as error:
            outputs.discard()
            raise CliError(str(error)) from None
        except BaseException:
            outputs.discard()
            raise
    console = wide_console()
    _print_summary(console, summary, gates, diff)
    for line in written:
        console.print(line, highlight=False)
    return 0 if gates.passed else EXIT_GATE_FAILED


def _baseline(path: Path, stack: contextlib.ExitStack) -> Baseline:
    """The ``--baseline`` report, read and indexed, closed with ``stack`` (``CliError`` if unusable)."""
    try:
        baseline = Baseline(path)
    except InvalidInputError as error:
        raise CliError(str(error)) from None
    stack.callback(baseline.close)
    return baseline


def _input_bytes(paths: Sequence[Path]) -> int:
    """Total size of the inputs, each of which must be a regular file (it is read twice)."""
    total = 0
    for path in paths:
        try:
            status = path.stat()
        except OSError as error:
            raise CliError(f"{path}: {'no such file' if not path.exists() else error.strerror}") from None
        if not stat.S_ISREG(status.st_mode):
            kind = "a directory" if stat.S_ISDIR(status.st_mode) else "not a regular file"
            raise CliError(f"{path}: {kind}; replay reads regular files (twice: to index, then to score)")
        total += status.st_size
    return total


def _replay(
    args: argparse.Namespace,
    policy: GroundednessPolicy | None,
    outputs: ReplayOutputs,
    total: int,
    limits: GateLimits,
    diff: BaselineDiff | None,
) -> tuple[Summary, GateOutcome]:
    console = PipeSafeConsole(stderr=True)
    show = not args.no_progress and total >= PROGRESS_MIN_BYTES
    with _progress(console, "indexing", total, show) as advance:
        index = index_files(args.files, on_progress=advance)
    if not index.spans:
        raise CliError(f"no spans found in {', '.join(map(str, args.files))}")
    if diff is not None:
        diff.baseline.allow_content_matches(index.last)  # before the replay consumes index.last
    jobs = args.jobs or default_jobs(total)
    options = outputs.render_options
    results = (
        in_process(args.files, index, policy, options)
        if jobs == 1
        else in_workers(args.files, policy, options, jobs)  # each worker indexes its own traces
    )
    del index  # the workers index their own traces: free this one
    summary = Summary()
    with _progress(console, "scoring", total, show) as advance, contextlib.closing(results):
        for step in results:
            summary.add(step)
            outputs.add(step)
            if diff is not None:
                for change in filter(None, map(diff.add, step.turns())):
                    outputs.add_change(change)
            advance(step.bytes_read)
    if diff is not None:
        for removed in diff.removed():
            outputs.add_removed(removed)
    return summary, check_gates(summary.overall, limits, None if diff is None else diff.totals)


@contextmanager
def _progress(console: Console, label: str, total: int, enabled: bool) -> Iterator[Callable[[int], None]]:
    with Progress(
        TextColumn(label), BarColumn(), DownloadColumn(), TimeRemainingColumn(),
        console=console, transient=True, disable=not enabled,
    ) as progress:  # fmt: skip
        task = progress.add_task(label, total=total)
        yield lambda done: progress.update(task, completed=done)


def _print_summary(console: Console, summary: Summary, gates: GateOutcome, diff: BaselineDiff | None) -> None:
    table = Table(title="Groundedness by model and agent")
    for column in ("model", "agent", "turns", "mean score", "labels", "contradicted", "unsupported"):
        table.add_column(column, justify="left" if column in ("model", "agent", "labels") else "right")
    for model, agent, group in summary.by_model_and_agent():
        mean = group.mean_score
        labels = ", ".join(f"{label} {group.labels[label]}" for label in LABELS if group.labels[label])
        table.add_row(
            model, agent, str(group.turns), "-" if mean is None else f"{mean:.3f}",
            labels, str(group.contradicted), str(group.unsupported),
        )  # fmt: skip
    console.print(table)
    console.print(", ".join(f"{name}: {value}" for name, value in summary_pairs(summary)), highlight=False)
    if diff is not None:
        for pairs in diff_lines(diff):
            console.print(", ".join(f"{name}: {value}" for name, value in pairs), highlight=False)
    for line in gates.lines:
        console.print(line, style="green" if line.startswith("PASS") else "bold red", highlight=False)


def _non_negative_int(text: str) -> int:
    return _int_from(text, 0)


def _positive_int(text: str) -> int:
    return _int_from(text, 1)


def _int_from(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be >= {minimum}: {text!r}")
    return value
