"""The score distribution as an inline SVG bar chart (no scripts, no external resources).

Each bar is stacked by the labels of the turns in it, worst at the bottom: a score range says little on
its own (a turn at 0.85 is ``ungrounded`` when one of its atoms is contradicted), the label is what
alerts key on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from html import escape

BINS = 10
# Segment fills by label, bottom to top; the report's screenshot test looks for these exact colours.
LABEL_FILLS: dict[str, str] = {
    "ungrounded": "#c93c3c",
    "partially_grounded": "#d9921e",
    "grounded": "#23864e",
}
OTHER_FILL = "#8a909c"  # a label the scorer does not give scored turns (hand-made JSON reports)

_WIDTH, _HEIGHT = 640, 300
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 16, 16, 64
_LEGEND_SLOT = 150


def bin_counts(scores: Sequence[float], bins: int = BINS) -> list[int]:
    """Counts of ``scores`` in ``bins`` equal bins over [0, 1]; 1.0 falls in the last bin."""
    counts = [0] * bins
    for score in scores:
        counts[bin_index(score, bins)] += 1
    return counts


def histogram_svg(
    turns: Sequence[tuple[float, str]], *, title: str = "Groundedness score distribution"
) -> str:
    """An SVG histogram of ``(score, label)`` pairs, scores in [0, 1]: bars stacked by label, with axes,
    tick labels, per-bar counts and a legend of the labels present."""
    by_bin: list[Counter[str]] = [Counter() for _ in range(BINS)]
    for score, label in turns:
        by_bin[bin_index(score, BINS)][label] += 1
    labels = sorted({label for counts in by_bin for label in counts}, key=_stack_order)
    peak = max((counts.total() for counts in by_bin), default=0) or 1
    plot_w = _WIDTH - _LEFT - _RIGHT
    plot_h = _HEIGHT - _TOP - _BOTTOM
    bar_w = plot_w / BINS
    base = _TOP + plot_h
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {_HEIGHT}" width="{_WIDTH}" '
        f'height="{_HEIGHT}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{_LEFT}" y1="{base}" x2="{_LEFT + plot_w}" y2="{base}" stroke="#444"/>',
        f'<line x1="{_LEFT}" y1="{_TOP}" x2="{_LEFT}" y2="{base}" stroke="#444"/>',
    ]
    for i, counts in enumerate(by_bin):
        x = _LEFT + i * bar_w
        top: float = base
        total = counts.total()
        for label in labels:
            if counts[label]:
                height = plot_h * counts[label] / peak
                top -= height
                tooltip = f"{i / BINS:.1f}–{(i + 1) / BINS:.1f}: {counts[label]} of {total} turns {label}"
                parts.append(
                    f'<rect x="{x + 2:.1f}" y="{top:.1f}" width="{bar_w - 4:.1f}" height="{height:.1f}" '
                    f'fill="{_fill(label)}"><title>{escape(tooltip)}</title></rect>'
                )
        if total:
            parts.append(_text(x + bar_w / 2, top - 4, str(total)))
    for i in range(BINS + 1):
        parts.append(_text(_LEFT + i * bar_w, base + 16, f"{i / BINS:.1f}"))
    parts.append(_text(_LEFT + plot_w / 2, base + 34, "score", size=12))
    parts.append(
        f'<text x="12" y="{_TOP + plot_h / 2:.1f}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 12 {_TOP + plot_h / 2:.1f})">turns</text>'
    )
    parts.append(f'<text x="{_LEFT - 6}" y="{_TOP + 10}" text-anchor="end" font-size="11">{peak}</text>')
    parts.append('<g class="legend">')
    for slot, label in enumerate(labels):
        x = _LEFT + slot * _LEGEND_SLOT
        parts.append(
            f'<rect x="{x}" y="{_HEIGHT - 17}" width="10" height="10" fill="{_fill(label)}"/>'
            f'<text x="{x + 14}" y="{_HEIGHT - 8}" font-size="11">{escape(label)}</text>'
        )
    parts.append("</g></svg>")
    return "".join(parts)


def bin_index(score: float, bins: int = BINS) -> int:
    """The bin of ``score`` among ``bins`` equal bins over [0, 1]; 1.0 falls in the last bin."""
    return min(int(max(score, 0.0) * bins), bins - 1)


def _stack_order(label: str) -> tuple[int, str]:
    order = list(LABEL_FILLS)
    return (order.index(label), "") if label in LABEL_FILLS else (len(order), label)


def _fill(label: str) -> str:
    return LABEL_FILLS.get(label, OTHER_FILL)


def _text(x: float, y: float, content: str, *, size: int = 11) -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" font-size="{size}">{escape(content)}</text>'
