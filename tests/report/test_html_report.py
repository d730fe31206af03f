"""The HTML report: self-contained page, atoms marked in the answer, worst turns first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from otel_groundedness.evaluator import Evaluator
from otel_groundedness.report.highlight import segments
from otel_groundedness.report.histogram_svg import bin_counts, histogram_svg
from otel_groundedness.report.html_report import (
    Table,
    describe_citation,
    render_html,
    worst_turns,
    write_html,
)

from .sample_turns import atom, sample_turns


def test_segments_cut_the_answer_at_atom_spans_and_keep_all_text() -> None:
    answer = "Total $1,423,500 due March 3, 2025."
    atoms = [
        atom("date", "March 3, 2025", answer, "supported", "reformatted", "$.due_date"),
        atom("money", "$1,423,500", answer, "contradicted", "digit_transposition", "$.total"),
    ]
    parts = segments(answer, atoms)
    assert "".join(part.text for part in parts) == answer
    assert [part.text for part in parts if part.atom] == ["$1,423,500", "March 3, 2025"]


def test_overlapping_or_out_of_range_atoms_are_left_unmarked() -> None:
    answer = "Total $1,423,500."
    first = atom("money", "$1,423,500", answer, "supported", "exact", "$.total")
    overlapping = {**first, "start": first["start"] + 2}
    beyond = {**first, "start": 5, "end": 500}
    parts = segments(answer, [first, overlapping, beyond])
    assert [part.text for part in parts if part.atom] == ["$1,423,500"]
    assert "".join(part.text for part in parts) == answer


def test_page_marks_each_atom_with_its_verdict_and_citation() -> None:
    html = render_html(sample_turns([0.5]), title="t")
    marks = re.findall(r'<mark class="v-(\w+)" title="([^"]*)">([^<]*)</mark>', html)
    assert ("contradicted", "$1,423,500") in [(verdict, text) for verdict, _, text in marks]
    title = next(title for verdict, title, _ in marks if verdict == "contradicted")
    assert "digit_transposition" in title and "$.total" in title


def test_answer_text_is_escaped() -> None:
    turns = sample_turns([0.5])
    turns[0]["answer"] = "<script>alert(1)</script> " + turns[0]["answer"]
    html = render_html(turns, title="<b>title</b>")
    assert "<script>alert(1)" not in html and "&lt;script&gt;" in html
    assert "<b>title</b>" not in html


def test_page_is_self_contained() -> None:
    html = render_html(sample_turns([0.2, 1.0]), title="t", tables=[Table("x", ("a",), [[1]])])
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<script" not in html and "@import" not in html
    assert "<svg" in html


def test_worst_turns_lowest_score_first_and_perfect_turns_left_out() -> None:
    turns = sample_turns([0.9, 1.0, 0.2, 0.5])
    assert [turn["score"] for turn in worst_turns(turns, 10)] == [0.2, 0.5, 0.9]
    assert [turn["score"] for turn in worst_turns(turns, 2)] == [0.2, 0.5]


def _bar_segments(svg: str) -> list[tuple[str, float, str]]:
    """(fill, height, tooltip) of every drawn bar segment (legend swatches carry no tooltip)."""
    found = re.findall(r'<rect [^>]*height="([0-9.]+)" fill="(#[0-9a-f]{6})"><title>([^<]*)</title>', svg)
    return [(fill, float(height), tooltip) for height, fill, tooltip in found]


def test_histogram_bins_include_both_ends() -> None:
    assert bin_counts([0.0, 0.05, 0.1, 0.99, 1.0]) == [2, 1, 0, 0, 0, 0, 0, 0, 0, 2]
    svg = histogram_svg([(0.0, "ungrounded"), (1.0, "grounded"), (1.0, "grounded")])
    assert len(_bar_segments(svg)) == 2


def test_bars_are_coloured_by_the_labels_of_their_turns_not_by_score_range() -> None:
    # 0.8–0.9 holds two ungrounded turns (a contradiction) and one partially grounded (an unsupported atom).
    labels = ["ungrounded", "ungrounded", "ungrounded", "partially_grounded", "grounded"]
    html = render_html(sample_turns([0.25, 0.85, 0.83, 0.88, 1.0], labels), title="t")
    segments = {
        (tooltip.split(":")[0], label): (fill, height)
        for fill, height, tooltip in _bar_segments(html)
        for label in ("partially_grounded", "ungrounded", "grounded")
        if f" {label}" in tooltip
    }
    assert set(segments) == {
        ("0.2–0.3", "ungrounded"),
        ("0.8–0.9", "ungrounded"),
        ("0.8–0.9", "partially_grounded"),
        ("0.9–1.0", "grounded"),
    }
    fill = {label: fill for (_, label), (fill, _) in segments.items()}
    assert segments["0.2–0.3", "ungrounded"][0] == segments["0.8–0.9", "ungrounded"][0]
    assert len(set(fill.values())) == 3
    # Stacked: each segment's height is its share of the bin.
    height = {key: value for key, (_, value) in segments.items()}
    assert height["0.8–0.9", "ungrounded"] == pytest.approx(
        2 * height["0.8–0.9", "partially_grounded"], abs=0.2
    )
    assert height["0.8–0.9", "ungrounded"] == pytest.approx(2 * height["0.9–1.0", "grounded"], abs=0.2)
    # One legend entry per label present, with the bars' colour.
    for label, colour in fill.items():
        assert re.search(rf'<rect [^>]*fill="{colour}"/><text [^>]*>{label}</text>', html), label


def test_citation_names_the_evidence_and_says_so_for_contradictions() -> None:
    answer = "Total $1,423,500."
    contradicted = atom("money", "$1,423,500", answer, "contradicted", "digit_transposition", "$.total")
    assert describe_citation(contradicted) == "evidence says #0 get_invoice $.total = 1243500.0"
    assert describe_citation({**contradicted, "citation": None}) == ""


def test_report_file_is_written(tmp_path: Path) -> None:
    path = write_html(tmp_path / "nested" / "r.html", sample_turns([0.5]), title="t")
    assert path.read_text(encoding="utf-8").startswith("<!doctype html>")


def test_page_names_who_scored_it() -> None:
    evaluator = Evaluator("otel-groundedness", "9.9.9", "deterministic", "0123456789ab")
    line = next(
        line
        for line in render_html(sample_turns([0.5]), title="t", evaluator=evaluator).splitlines()
        if "provenance" in line
    )
    assert "otel-groundedness 9.9.9 (deterministic)" in line and "<code>0123456789ab</code>" in line
    assert "provenance" not in render_html(sample_turns([0.5]), title="t")
