"""The HTML report renders offline in headless Chromium, and the score plot is really drawn."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

from otel_groundedness.report.histogram_svg import LABEL_FILLS
from otel_groundedness.report.html_report import write_html

from .png import Image, decode_png
from .sample_turns import sample_turns

_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=1200,900",
)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


def _screenshot(page: Path, tmp_path: Path) -> Image:
    chromium = shutil.which("chromium")
    assert chromium, "Debian package 'chromium' is required (scripts/install-system-deps.sh installs it)"
    shot = tmp_path / f"{page.stem}.png"
    subprocess.run(
        [chromium, *_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={shot}", page.as_uri()],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return decode_png(shot.read_bytes())


def _colour_counts(image: Image) -> Counter[tuple[int, int, int]]:
    return Counter(image.pixel(x, y) for y in range(image.height) for x in range(image.width))


def test_plot_bars_are_coloured_by_label_in_proportion_to_the_counts(tmp_path: Path) -> None:
    # Bins: 0.2 (1 ungrounded), 0.8 (1 ungrounded + 1 partially grounded), 1.0 (3 grounded). Coloured by
    # score range, the 0.8 bar would be green and the 0.2 one alone red.
    labels = ["ungrounded", "ungrounded", "partially_grounded", "grounded", "grounded", "grounded"]
    turns = sample_turns([0.25, 0.85, 0.86, 1.0, 1.0, 1.0], labels)
    page = write_html(tmp_path / "report.html", turns, title="Chromium check")
    shot = _screenshot(page, tmp_path)
    counts = _colour_counts(shot)

    red, amber, green = (
        counts[_rgb(LABEL_FILLS[label])] for label in ("ungrounded", "partially_grounded", "grounded")
    )
    assert amber > 2000, amber
    # Same bar width: two ungrounded turns, one partially grounded, three grounded (the legend adds a
    # swatch of each, about 2% of a one-turn segment).
    assert 1.85 < red / amber < 2.15, (red, amber)
    assert 2.8 < green / amber < 3.2, (green, amber)


def test_page_without_scores_draws_no_bars(tmp_path: Path) -> None:
    page = write_html(tmp_path / "empty.html", [], title="Nothing scored")
    counts = _colour_counts(_screenshot(page, tmp_path))
    assert all(counts[_rgb(fill)] == 0 for fill in LABEL_FILLS.values())
    # The page itself rendered (text and axes are drawn), not a blank failure.
    assert len(counts) > 10
