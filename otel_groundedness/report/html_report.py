"""The self-contained HTML report: summary, score distribution plot and the worst turns.

It renders from plain dicts (the turn entries of a JSON report), so a report can be rebuilt
from a saved JSON file. The page embeds its styles and an inline SVG plot: it opens offline.
``render_page`` takes the scores and the worst turns alone, so turns can stream by (``WorstTurns``).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from otel_groundedness.evaluator import Evaluator
from otel_groundedness.report.highlight import atoms_of, segments
from otel_groundedness.report.histogram_svg import histogram_svg
from otel_groundedness.scoring.results import Citation

WORST_TURNS = 20
CHANGED_TURNS = 20


@dataclass(frozen=True, slots=True)
class Table:
    """An extra table for the report (for example the demo's detection table)."""

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]


@dataclass(frozen=True, slots=True)
class Changes:
    """The "changed since baseline" section: the comparison's figures, and the turns that changed most
    (entries of the JSON report's ``diff.turns``, as ``ChangedTurns`` picks them)."""

    summary: Sequence[tuple[str, Any]]
    turns: Sequence[Mapping[str, Any]]


def render_html(
    turns: Sequence[Mapping[str, Any]],
    *,
    title: str,
    subtitle: str = "",
    summary: Sequence[tuple[str, Any]] = (),
    tables: Sequence[Table] = (),
    worst: int = WORST_TURNS,
    evaluator: Evaluator | None = None,
) -> str:
    """The report page for ``turns`` (dicts with ``answer``, ``score``, ``label``, ``report``...)."""
    scored = [(float(turn["score"]), _label(turn)) for turn in turns if _has_score(turn)]
    return render_page(
        scored,
        worst_turns(turns, worst),
        title=title,
        subtitle=subtitle,
        summary=summary,
        tables=tables,
        evaluator=evaluator,
    )


def render_page(
    scored: Sequence[tuple[float, str]],
    worst: Iterable[Mapping[str, Any]],
    *,
    title: str,
    subtitle: str = "",
    summary: Sequence[tuple[str, Any]] = (),
    tables: Sequence[Table] = (),
    evaluator: Evaluator | None = None,
    changes: Changes | None = None,
) -> str:
    """The report page from the (score, label) of every scored turn and the worst turns (as
    ``worst_turns`` picks them); ``evaluator`` names who scored them, under the subtitle."""
    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            title=title,
            subtitle=subtitle,
            evaluator=evaluator,
            summary=summary,
            plot=histogram_svg(scored),
            tables=tables,
            changes=changes,
            worst=[_worst_entry(turn) for turn in worst],
        )
    )


def write_html(path: Path, turns: Sequence[Mapping[str, Any]], **options: Any) -> Path:
    """Render the report into ``path`` (parent directories created) and return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(turns, **options), encoding="utf-8")
    return path


def worst_turns(turns: Iterable[Mapping[str, Any]], limit: int) -> list[Mapping[str, Any]]:
    """Scored turns below 1.0, lowest score first, more contradicted atoms first, then first seen first."""
    worst = WorstTurns(limit)
    for turn in turns:
        worst.add(turn)
    return worst.turns()


class WorstTurns:
    """The ``limit`` worst turns of a stream of turns, holding no more than ``limit`` of them."""

    def __init__(self, limit: int = WORST_TURNS) -> None:
        self._limit = limit
        self._seen = 0
        # A heap of negated sort keys: its top is the least bad turn kept, the first to give way.
        self._heap: list[tuple[tuple[float, int, int], Mapping[str, Any]]] = []

    def admits(self, score: float | None, contradicted: int) -> bool:
        """Whether a turn with this score and this many contradicted atoms would be kept now (so a
        caller can skip building the turn's entry)."""
        if score is None or score >= 1.0:
            return False
        return len(self._heap) < self._limit or (-score, contradicted) > self._heap[0][0][:2]

    def add(self, turn: Mapping[str, Any]) -> None:
        if not _has_score(turn) or turn["score"] >= 1.0:
            return
        self._seen += 1
        contradicted = len(turn.get("report", {}).get("contradicted") or ())
        item = ((-float(turn["score"]), contradicted, -self._seen), turn)
        if len(self._heap) < self._limit:
            heapq.heappush(self._heap, item)
        elif self._heap and item[0] > self._heap[0][0]:
            heapq.heapreplace(self._heap, item)

    def turns(self) -> list[Mapping[str, Any]]:
        """The kept turns, worst first."""
        return [turn for _, turn in sorted(self._heap, key=lambda item: item[0], reverse=True)]


class ChangedTurns:
    """The ``limit`` turns of a baseline comparison that lost most: largest score drop first, then
    most new contradicted atoms, then first seen first."""

    def __init__(self, limit: int = CHANGED_TURNS) -> None:
        self._limit = limit
        self._seen = 0
        self._heap: list[tuple[tuple[float, int, int], Mapping[str, Any]]] = []

    def add(self, change: Mapping[str, Any]) -> None:
        self._seen += 1
        before, after = change["score_before"], change["score_after"]
        drop = before - after if before is not None and after is not None else 0.0
        item = ((drop, change["new_contradicted_atoms"], -self._seen), change)
        if len(self._heap) < self._limit:
            heapq.heappush(self._heap, item)
        elif item[0] > self._heap[0][0]:
            heapq.heapreplace(self._heap, item)

    def turns(self) -> list[Mapping[str, Any]]:
        return [change for _, change in sorted(self._heap, key=lambda item: item[0], reverse=True)]


def describe_atom_change(change: Mapping[str, Any]) -> str:
    """``$4,914.89 → $4,941.89: supported → contradicted``; ``X: new, supported``; ``X: supported, gone``."""
    before, after = change.get("before"), change.get("after")
    if before is None:
        return f"{after['text']}: new, {after['verdict']}" if after else ""
    if after is None:
        return f"{before['text']}: {before['verdict']}, gone"
    texts = before["text"] if before["text"] == after["text"] else f"{before['text']} → {after['text']}"
    return f"{texts}: {before['verdict']} → {after['verdict']}"


def _has_score(turn: Mapping[str, Any]) -> bool:
    return isinstance(turn.get("score"), int | float)


def describe_citation(atom: Mapping[str, Any]) -> str:
    """Where the atom's value was found (for a contradicted atom: the evidence it contradicts).

    Reads like ``#1 get_invoice $.total = 1243500.0``: evidence item, tool, JSON path or character
    span, and the evidence text; ``prompt`` stands for the user prompt. A derived figure reads
    ``#0 $.invoices[0].total + $.invoices[1].total = 1200.5 + 799.5``.
    """
    citation = atom.get("citation")
    if not isinstance(citation, Mapping):
        return ""
    if citation.get("operation"):  # a derived figure: the operation over every operand
        try:
            return Citation.from_dict(citation).describe()
        except (TypeError, ValueError, KeyError, AttributeError):
            return str(citation.get("text", ""))
    index = citation.get("evidence_index")
    parts = ["prompt" if index is None else f"#{index}"]
    label = citation.get("name") or citation.get("source_id")
    if label:
        parts.append(str(label))
    path = citation.get("path")
    parts.append(str(path) if path else f"[{citation.get('start')}:{citation.get('end')}]")
    described = f"{' '.join(parts)} = {citation.get('text', '')}"
    return f"evidence says {described}" if atom.get("verdict") == "contradicted" else described


def _worst_entry(turn: Mapping[str, Any]) -> dict[str, Any]:
    report = turn.get("report") or {}
    atoms = atoms_of(report)
    return {
        "trace_id": turn.get("trace_id", ""),
        "span_id": turn.get("span_id", ""),
        "label": _label(turn),
        "score": float(turn["score"]),
        "agent": turn.get("agent"),
        "model": turn.get("model"),
        "fault": turn.get("fault"),
        "atoms": atoms,
        "segments": segments(str(turn.get("answer", "")), atoms),
    }


def _label(turn: Mapping[str, Any]) -> str:
    return str(turn.get("label") or (turn.get("report") or {}).get("label", ""))


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("otel_groundedness.report", "templates"),
        autoescape=True,
    )
    environment.filters["citation"] = describe_citation
    environment.filters["atom_change"] = describe_atom_change
    environment.filters["before_after"] = _before_after
    return environment


def _before_after(pair: tuple[Any, Any]) -> str:
    """``1.00 → 0.75`` for scores, ``grounded → ungrounded`` for labels; one value if they are equal."""
    before, after = (
        "-" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value) for value in pair
    )
    return before if before == after else f"{before} → {after}"
