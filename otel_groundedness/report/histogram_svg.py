"""The score distribution as an inline SVG bar chart (no scripts, no external resources)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

BINS = 10
# Bar fills by score band; the report's screenshot test looks for these exact colours.
LOW_FILL = "#c93c3c"  # score < 0.5
MID_FILL = "#d9921e"  # 0.5 <= score < 0.8
HIGH_FILL = "#23864e"  # score >= 0.8

_WIDTH, _HEIGHT = 640, 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 16, 16, 44


def bin_counts(scores: Sequence[float], bins: int = BINS) -> list[int]:
    """Counts of ``scores`` in ``bins`` equal bins over [0, 1]; 1.0 falls in the last bin."""
    counts = [0] * bins
    for score in scores:
        index = min(int(max(score, 0.0) * bins), bins - 1)
        counts[index] += 1
    return counts


def fill_for(lower_edge: float) -> str:
    """The bar colour of the bin starting at ``lower_edge``."""
    if lower_edge < 0.5:
        return LOW_FILL
    if lower_edge < 0.8:
        return MID_FILL
    return HIGH_FILL


def histogram_svg(scores: Sequence[float], *, title: str = "Groundedness score distribution") -> str:
    """An SVG histogram of ``scores`` in [0, 1] with axes, tick labels and per-bar counts."""
    counts = bin_counts(scores)
    peak = max(counts, default=0) or 1
    plot_w = _WIDTH - _LEFT - _RIGHT
    plot_h = _HEIGHT - _TOP - _BOTTOM
    bar_w = plot_w / BINS
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {_HEIGHT}" width="{_WIDTH}" '
        f'height="{_HEIGHT}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{_LEFT}" y1="{_TOP + plot_h}" x2="{_LEFT + plot_w}" y2="{_TOP + plot_h}" stroke="#444"/>',
        f'<line x1="{_LEFT}" y1="{_TOP}" x2="{_LEFT}" y2="{_TOP + plot_h}" stroke="#444"/>',
    ]
    for i, count in enumerate(counts):
        height = plot_h * count / peak
        x = _LEFT + i * bar_w
        y = _TOP + plot_h - height
        lower = i / BINS
        label = f"{lower:.1f}–{lower + 1 / BINS:.1f}: {count} turn{'s' if count != 1 else ''}"
        if count:
            parts.append(
                f'<rect x="{x + 2:.1f}" y="{y:.1f}" width="{bar_w - 4:.1f}" height="{height:.1f}" '
                f'fill="{fill_for(lower)}"><title>{label}</title></rect>'
            )
            parts.append(_text(x + bar_w / 2, y - 4, str(count)))
    for i in range(BINS + 1):
        x = _LEFT + i * bar_w
        parts.append(_text(x, _TOP + plot_h + 16, f"{i / BINS:.1f}"))
    parts.append(_text(_LEFT + plot_w / 2, _HEIGHT - 6, "score", size=12))
    parts.append(
        f'<text x="12" y="{_TOP + plot_h / 2:.1f}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 12 {_TOP + plot_h / 2:.1f})">turns</text>'
    )
    parts.append(f'<text x="{_LEFT - 6}" y="{_TOP + 10}" text-anchor="end" font-size="11">{peak}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _text(x: float, y: float, content: str, *, size: int = 11) -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" font-size="{size}">{escape(content)}</text>'
