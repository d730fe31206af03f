"""What ``replay`` writes (``--out``, ``--json``, ``--html``), fed trace by trace as the replay streams.

Nothing here holds a turn longer than it takes to write it: enriched spans go out with each step,
JSON turn entries to a spool, and the HTML page keeps the scores and the worst turns only.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from otel_groundedness.cli.errors import CliError
from otel_groundedness.cli.output_files import JsonReport, OutputFile
from otel_groundedness.evaluator import Evaluator
from otel_groundedness.replay.gates import GateOutcome
from otel_groundedness.replay.otlp_codec import request_from_log_events, request_from_spans
from otel_groundedness.replay.otlp_files import OtlpWriter
from otel_groundedness.replay.otlp_values import MAX_VALUE_DEPTH
from otel_groundedness.replay.stream import Step
from otel_groundedness.replay.summary import LABELS, Summary, turn_entry
from otel_groundedness.report.html_report import Table, WorstTurns, render_page

GROUP_COLUMNS = ("model", "agent", "turns", "mean score", *LABELS, "contradicted", "unsupported")


class ReplayOutputs:
    """The requested output files, opened at once (``CliError`` if one cannot be) and committed together."""

    def __init__(
        self, evaluator: Evaluator, *, out: Path | None, json: Path | None, html: Path | None
    ) -> None:
        self._evaluator = evaluator
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
        self._scored: list[tuple[float, str]] = []  # the histogram's bars are split by label
        try:
            if out is not None:
                self._otlp = OtlpWriter.for_path(self._open(out), out)
            if json is not None:
                self._json = JsonReport(self._open(json))
            if html is not None:
                self._html = self._open(html)
        except BaseException:
            self.discard()
            raise

    def add(self, step: Step) -> None:
        if self._otlp is not None:
            if step.spans:
                self._otlp.write(request_from_spans(step.spans))
            if step.log_events:
                self._otlp.write(request_from_log_events(step.log_events))
        if self._json is None and self._html is None:
            return
        for trace in step.traces:
            for scored in trace.scored:
                entry = turn_entry(scored)
                if self._json is not None:
                    self._json.add_turn(entry)
                self._worst.add(entry)
                if scored.report.score is not None:
                    self._scored.append((scored.report.score, scored.report.label))

    def finish(self, summary: Summary, gates: GateOutcome, *, subtitle: str) -> list[str]:
        """Complete every file and move it into place; one line per file, naming it."""
        if self._json is not None:
            self._json.finish(json_head(self._evaluator, summary, gates))
        if self._html is not None:
            page = render_page(
                self._scored,
                self._worst.turns(),
                title="Groundedness replay",
                subtitle=subtitle,
                evaluator=self._evaluator,
                summary=summary_pairs(summary),
                tables=[Table("By model and agent", GROUP_COLUMNS, _group_rows(summary))],
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


def json_head(evaluator: Evaluator, summary: Summary, gates: GateOutcome) -> dict[str, Any]:
    """The JSON report but its ``turns``; who scored first (one evaluator per run: one policy)."""
    return {
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


def _group_rows(summary: Summary) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for model, agent, group in summary.by_model_and_agent():
        mean = group.mean_score
        rows.append(
            [model, agent, group.turns, "-" if mean is None else f"{mean:.3f}",
             *(group.labels[label] for label in LABELS), group.contradicted, group.unsupported]
        )  # fmt: skip
    return rows
