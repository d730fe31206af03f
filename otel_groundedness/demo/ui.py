"""Terminal output of the demo (rich): live progress with a running score distribution, and the summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from types import TracebackType

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from otel_groundedness.demo.summary import DemoSummary
from otel_groundedness.demo.telemetry import ScoredSpan
from otel_groundedness.report.histogram_svg import BINS, LABEL_FILLS, bin_index

_BAR_WIDTH = 30
_LABEL_STYLES = {
    "grounded": "green",
    "partially_grounded": "yellow",
    "ungrounded": "red",
    "no_evidence": "dim",
    "no_factual_content": "dim",
}


def histogram_lines(scored: Sequence[ScoredSpan]) -> Text:
    """A text histogram of the scored turns: one line per score bin, bar length proportional to the
    count, the bar split into label colours like the HTML report's (worst first)."""
    by_bin: list[Counter[str]] = [Counter() for _ in range(BINS)]
    for span in scored:
        if span.score is not None:
            by_bin[bin_index(span.score)][span.label] += 1
    peak = max((counts.total() for counts in by_bin), default=0) or 1
    text = Text()
    for i, counts in enumerate(by_bin):
        total = counts.total()
        length = round(_BAR_WIDTH * total / peak)
        text.append(f"{i / BINS:.1f}–{(i + 1) / BINS:.1f} ")
        drawn = cumulative = 0
        for label in LABEL_FILLS:  # the report's stacking order
            if not counts[label]:
                continue
            cumulative += counts[label]
            end = round(length * cumulative / total)
            text.append("█" * (end - drawn), style=_LABEL_STYLES[label])
            drawn = end
        text.append(f" {total}\n")
    return text


def label_line(labels: Counter[str]) -> Text:
    text = Text()
    for label, style in _LABEL_STYLES.items():
        text.append(f"{label} ", style=style)
        text.append(f"{labels[label]}   ")
    return text


class LiveView:
    """Progress bar, running score histogram and label counts, redrawn after each turn."""

    def __init__(self, console: Console, total: int, *, enabled: bool) -> None:
        self._progress = Progress(
            TextColumn("turns"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
        )
        self._task = self._progress.add_task("turns", total=total)
        self._scores: list[ScoredSpan] = []
        self._live = (
            Live(self._render(), console=console, refresh_per_second=8, transient=False) if enabled else None
        )

    def __enter__(self) -> LiveView:
        if self._live is not None:
            self._live.__enter__()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._live is not None:
            self._live.__exit__(kind, error, trace)

    def update(self, completed: int, scores: Sequence[ScoredSpan]) -> None:
        """Show ``completed`` turns done and the scores the processor has emitted so far."""
        self._progress.update(self._task, completed=completed)
        self._scores = list(scores)
        if self._live is not None:
            self._live.update(self._render())

    def _render(self) -> RenderableType:
        labels = Counter(s.label for s in self._scores)
        flagged = sum(1 for s in self._scores if s.flagged)
        header = Text(
            f"scored {len(self._scores)} turns, {flagged} flagged (contradicted or unsupported atoms)"
        )
        return Group(self._progress, header, label_line(labels), histogram_lines(self._scores))


def print_summary(console: Console, summary: DemoSummary) -> None:
    """The end-of-run summary: counts, histogram, detection table, where the outputs went."""
    console.rule("otel-groundedness demo: summary")
    console.print(
        f"turns: {len(summary.outcomes)} run, {summary.turns_scored} scored, {summary.turns_failed} failed "
        f"(semconv {summary.semconv}, {summary.wall_time_s:.1f} s)",
        highlight=False,
    )
    console.print(label_line(summary.labels))
    console.print(Text("score distribution (scored turns)", style="bold"))
    console.print(histogram_lines([o.scored for o in summary.outcomes if o.scored is not None]))
    console.print(detection_table(summary))
    if summary.html_path is not None:
        console.print(f"HTML report: {summary.html_path}", highlight=False)
    if summary.json_path is not None:
        console.print(f"JSON report: {summary.json_path}", highlight=False)
    if summary.otlp_file is not None:
        console.print(f"OTLP recording: {summary.otlp_file}", highlight=False)


def detection_table(summary: DemoSummary) -> Table:
    """Injected vs flagged per fault kind; flagged comes from the processor's exported spans."""
    table = Table(title="Detection: injected vs flagged by the processor")
    for column in ("fault", "expected", "injected", "scored", "flagged", "rate"):
        table.add_column(column, justify="left" if column in ("fault", "expected") else "right")
    for row in summary.detection:
        rate = "-" if row.rate is None else f"{row.rate:.0%}"
        good = row.rate is not None and (row.rate == 1.0 if row.should_flag else row.rate == 0.0)
        table.add_row(
            row.fault,
            "flag" if row.should_flag else "stay supported",
            str(row.injected),
            str(row.scored),
            str(row.flagged),
            Text(rate, style="green" if good else "red"),
        )
    return table
