"""The self-contained HTML report: summary, score distribution plot and the worst turns.

It renders from plain dicts (the turn entries of a JSON report), so a report can be rebuilt
from a saved JSON file. The page embeds its styles and an inline SVG plot: it opens offline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from otel_groundedness.report.highlight import atoms_of, segments
from otel_groundedness.report.histogram_svg import histogram_svg

WORST_TURNS = 20


@dataclass(frozen=True, slots=True)
class Table:
    """An extra table for the report (for example the demo's detection table)."""

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]


def render_html(
    turns: Sequence[Mapping[str, Any]],
    *,
    title: str,
    subtitle: str = "",
    summary: Sequence[tuple[str, Any]] = (),
    tables: Sequence[Table] = (),
    worst: int = WORST_TURNS,
) -> str:
    """The report page for ``turns`` (dicts with ``answer``, ``score``, ``label``, ``report``...)."""
    scored = [
        (float(turn["score"]), _label(turn)) for turn in turns if isinstance(turn.get("score"), int | float)
    ]
    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            title=title,
            subtitle=subtitle,
            summary=summary,
            plot=histogram_svg(scored),
            tables=tables,
            worst=[_worst_entry(turn) for turn in worst_turns(turns, worst)],
        )
    )


def write_html(path: Path, turns: Sequence[Mapping[str, Any]], **options: Any) -> Path:
    """Render the report into ``path`` (parent directories created) and return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(turns, **options), encoding="utf-8")
    return path


def worst_turns(turns: Sequence[Mapping[str, Any]], limit: int) -> list[Mapping[str, Any]]:
    """Scored turns below 1.0, lowest score first, more contradicted atoms first on ties."""
    lost = [turn for turn in turns if isinstance(turn.get("score"), int | float) and turn["score"] < 1.0]
    lost.sort(key=lambda turn: (turn["score"], -len(turn.get("report", {}).get("contradicted") or ())))
    return lost[:limit]


def describe_citation(atom: Mapping[str, Any]) -> str:
    """Where the atom's value was found (for a contradicted atom: the evidence it contradicts).

    Reads like ``#1 get_invoice $.total = 1243500.0``: evidence item, tool, JSON path or character
    span, and the evidence text; ``prompt`` stands for the user prompt.
    """
    citation = atom.get("citation")
    if not isinstance(citation, Mapping):
        return ""
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
    return environment
