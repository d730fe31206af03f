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
_CITATION_KEYS = ("citation", "nearest_evidence")


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
    scores = [float(turn["score"]) for turn in turns if isinstance(turn.get("score"), int | float)]
    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            title=title,
            subtitle=subtitle,
            summary=summary,
            plot=histogram_svg(scores),
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
    """A one-line account of where an atom's value was found (or the nearest evidence value)."""
    for key in _CITATION_KEYS:
        citation = atom.get(key)
        if isinstance(citation, Mapping) and citation:
            fields = [f"{name}={value}" for name, value in citation.items() if _is_shown(value)]
            prefix = "nearest: " if key == "nearest_evidence" else ""
            return prefix + ", ".join(fields)
        if isinstance(citation, str) and citation:
            return citation
    return ""


def _is_shown(value: Any) -> bool:
    return value is not None and value != "" and isinstance(value, str | int | float)


def _worst_entry(turn: Mapping[str, Any]) -> dict[str, Any]:
    report = turn.get("report") or {}
    atoms = atoms_of(report)
    return {
        "trace_id": turn.get("trace_id", ""),
        "span_id": turn.get("span_id", ""),
        "label": turn.get("label") or report.get("label", ""),
        "score": float(turn["score"]),
        "agent": turn.get("agent"),
        "model": turn.get("model"),
        "fault": turn.get("fault"),
        "atoms": atoms,
        "segments": segments(str(turn.get("answer", "")), atoms),
    }


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("otel_groundedness.report", "templates"),
        autoescape=True,
    )
    environment.filters["citation"] = describe_citation
    return environment
