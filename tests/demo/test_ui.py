"""The demo's terminal histogram colours bars by the labels of their turns, like the HTML report."""

from __future__ import annotations

from otel_groundedness.demo.telemetry import ScoredSpan
from otel_groundedness.demo.ui import histogram_lines


def _span(number: int, label: str, score: float | None) -> ScoredSpan:
    return ScoredSpan(number, number, label, score, int(label == "ungrounded"), 0)


def test_bars_are_split_by_label_worst_first_not_coloured_by_score_range() -> None:
    scored = [
        _span(1, "ungrounded", 0.85),
        _span(2, "ungrounded", 0.83),
        _span(3, "partially_grounded", 0.88),
        _span(4, "grounded", 1.0),
        _span(5, "no_evidence", None),
    ]
    text = histogram_lines(scored)
    lines = text.plain.splitlines()
    assert lines[8] == "0.8–0.9 " + "█" * 30 + " 3"
    assert lines[9] == "0.9–1.0 " + "█" * 10 + " 1"
    assert lines[0] == "0.0–0.1  0"
    runs = [(text.plain[span.start : span.end], str(span.style)) for span in text.spans]
    assert runs == [("█" * 20, "red"), ("█" * 10, "yellow"), ("█" * 10, "green")]
