"""What ``replay`` writes (``--out``, ``--json``, ``--html``), fed trace by trace as the replay streams.

Nothing here holds a turn longer than it takes to write it: enriched spans go out with each step,
JSON turn entries (and with ``--baseline`` the changed and removed turns) to spools, and the HTML page
keeps the scores, the worst turns and the turns that changed most only.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from otel_groundedness.cli.errors import CliError
from otel_groundedness.cli.output_files import JsonReport, OutputFile
from otel_groundedness.evaluator import Evaluator
from otel_groundedness.otlp.encoded import join_logs, join_spans
from otel_groundedness.otlp.files import OtlpWriter
from otel_groundedness.otlp.values import MAX_VALUE_DEPTH
from otel_groundedness.replay.baseline import BaselineTurn
from otel_groundedness.replay.diff import BaselineDiff, TurnChange
from otel_groundedness.replay.gates import GateOutcome
from otel_groundedness.replay.rendering import RenderOptions, StepResult
from otel_groundedness.replay.summary import LABELS, REPORT_VERSION, Summary
from otel_groundedness.report.html_report import ChangedTurns, Changes, Table, WorstTurns, render_page

GROUP_COLUMNS = ("model", "agent", "turns", "mean score", *LABELS, "contradicted", "unsupported")


class ReplayOutputs:
    """The requested output files, opened at once (``CliError`` if one cannot be) and committed together."""

    def __init__(
        self,
        evaluator: Evaluator,
        *,
        out: Path | None,
        json: Path | None,
        html: Path | None,
        diff: BaselineDiff | None = None,
    ) -> None:
        self._evaluator = evaluator
        self._diff = diff
        requested = [path for path in (out, json, html) if path is not None]
        if len({path.resolve() for path in requested}) < len(requested):
            raise CliError(f"two outputs name the same file: {', '.join(map(str, requested))}")
        self._named = [
            f"{label}: {path}"
            for label, path in (("enriched spans", out), ("JSON report", json), ("HTML report", html))
            if path is not None
        ]
        self._files: list[OutputFile] = []
        self._otlp: OtlpWriter | None = None
        self._json: JsonReport | None = None
        self._html: OutputFile | None = None
        self._worst = WorstTurns()
        self._changed = ChangedTurns()
        self._scored: list[tuple[float, str]] = []  # the histogram's bars are split by label
        try:
            if out is not None:
                self._otlp = OtlpWriter.for_path(self._open(out), out)
            if json is not None:
                lists = [("diff", "turns"), ("diff", "removed")] if diff is not None else []
                self._json = JsonReport(self._open(json), [*lists, ("turns",)])
            if html is not None:
                self._html = self._open(html)
        except BaseException:
            self.discard()
            raise

    @property
    def render_options(self) -> RenderOptions:
        """What ``add`` needs rendered: turn entries for a report, OTLP records for ``--out``."""
        return RenderOptions(
            entries=self._json is not None or self._html is not None,
            otlp_proto=None if self._otlp is None else self._otlp.proto,
        )

    def add(self, step: StepResult) -> None:
        """A position's enriched records and turns, rendered as ``render_options`` says."""
        if self._otlp is not None:
            proto = self._otlp.proto
            if step.spans:
                self._otlp.write_encoded(join_spans(step.spans, proto=proto))
            if step.log_events:
                self._otlp.write_encoded(join_logs(step.log_events, proto=proto))
        for turn in step.turns():
            if turn.entry is None:
                continue
            if self._json is not None:
                self._json.add_laid_out(("turns",), turn.entry)
            if self._html is None:
                continue
            figures = turn.figures
            if figures.score is not None:
                self._scored.append((figures.score, figures.label))
            if self._worst.admits(figures.score, figures.contradicted):
                self._worst.add(json.loads(turn.entry))

    def add_change(self, change: TurnChange) -> None:
        entry = change.to_dict()
        if self._json is not None:
            self._json.add(("diff", "turns"), entry)
        self._changed.add(entry)

    def add_removed(self, turn: BaselineTurn) -> None:
        if self._json is not None:
            self._json.add(("diff", "removed"), turn.removed_entry())

    def finish(self, summary: Summary, gates: GateOutcome, *, subtitle: str) -> list[str]:
        """Complete every file and move it into place; one line per file, naming it."""
        diff = self._diff
        if self._json is not None:
            self._json.finish(json_head(self._evaluator, summary, gates, diff))
        if self._html is not None:
            page = render_page(
                self._scored,
                self._worst.turns(),
                title="Groundedness replay",
                subtitle=subtitle,
                evaluator=self._evaluator,
                summary=summary_pairs(summary),
                tables=[Table("By model and agent", GROUP_COLUMNS, _group_rows(summary))],
                changes=None
                if diff is None
                else Changes([pair for line in diff_lines(diff) for pair in line], self._changed.turns()),
            )
            self._html.write(page.encode("utf-8"))
        for file in self._files:
            file.commit()
        return self._named

    def discard(self) -> None:
        """Remove whatever was not committed (a failed or interrupted run)."""
        for file in self._files:
            file.discard()

    def _open(self, path: Path) -> OutputFile:
        file = OutputFile(path)
        self._files.append(file)
        return file


def summary_pairs(summary: Summary) -> list[tuple[str, Any]]:
    """The summary line's figures, in order."""
    overall = summary.overall
    mean = overall.mean_score
    pairs: list[tuple[str, Any]] = [
        ("spans", summary.spans),
        ("traces", summary.traces),
        ("turns", overall.turns),
        ("turns with a score", len(overall.scores)),
        ("mean score", "-" if mean is None else f"{mean:.3f}"),
        ("contradicted atoms", overall.contradicted),
        ("unsupported atoms", overall.unsupported),
    ]
    if summary.skipped:
        pairs.append(("skipped", ", ".join(f"{k} {v}" for k, v in sorted(summary.skipped.items()))))
    if summary.values_cut:
        pairs.append((f"values nested deeper than {MAX_VALUE_DEPTH} levels cut", summary.values_cut))
    return pairs


def json_head(
    evaluator: Evaluator, summary: Summary, gates: GateOutcome, diff: BaselineDiff | None = None
) -> dict[str, Any]:
    """The JSON report, its lists left to ``JsonReport``. Who scored first (one policy per run)."""
    head = {
        "report_version": REPORT_VERSION,
        "evaluator": dataclasses.asdict(evaluator),
        "summary": {
            **summary.overall.to_dict(),
            "spans": summary.spans,
            "traces": summary.traces,
            "skipped": dict(sorted(summary.skipped.items())),
            "nested_values_cut": summary.values_cut,
        },
        "groups": [
            {"model": model, "agent": agent, **group.to_dict()}
            for model, agent, group in summary.by_model_and_agent()
        ],
        "gates": {"passed": gates.passed, "checks": list(gates.lines)},
    }
    if diff is not None:
        head["diff"] = {**diff.head(), "turns": [], "removed": []}
    head["turns"] = []
    return head


def diff_lines(diff: BaselineDiff) -> list[list[tuple[str, Any]]]:
    """The comparison's figures in order, a line each: which baseline, how turns matched, what moved."""
    baseline, totals = diff.baseline, diff.totals
    before = baseline.evaluator
    drop = totals.mean_score_drop
    return [
        [
            ("baseline", f"{baseline.path} ({baseline.turns} turns)"),
            ("baseline scorer", f"{before['id']} {before['version']}, policy {before['policy_fingerprint']}"),
            ("scorer changed", "yes" if diff.scorer_changed else "no"),
        ],
        [
            ("matched by id", totals.matched_by_id),
            ("matched by answer and evidence", totals.matched_by_content),
            ("new turns", totals.new_turns),
            ("removed turns", totals.removed_turns),
            ("answers changed", totals.answer_changed),
            ("evidence changed", totals.evidence_changed),
        ],
        [
            ("regressed turns", totals.regressed),
            ("improved turns", totals.improved),
            ("mean score drop", "-" if drop is None else f"{drop:.3f} over {totals.scored_in_both} turns"),
            ("new contradicted atoms", totals.new_contradicted),
        ],
    ]


def _group_rows(summary: Summary) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for model, agent, group in summary.by_model_and_agent():
        mean = group.mean_score
        rows.append(
            [model, agent, group.turns, "-" if mean is None else f"{mean:.3f}",
             *(group.labels[label] for label in LABELS), group.contradicted, group.unsupported]
        )  # fmt: skip
    return rows
