"""The HTML report renders offline in headless Chromium, and the score plot is really drawn."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

from otel_groundedness.report.histogram_svg import HIGH_FILL, LOW_FILL, MID_FILL
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


def test_plot_bars_are_rendered_in_proportion_to_the_counts(tmp_path: Path) -> None:
    # Bins: 0.2 (1 turn, low), 0.6 (1 turn, mid), 1.0 (3 turns, high).
    turns = sample_turns([0.25, 0.6, 1.0, 1.0, 1.0])
    page = write_html(tmp_path / "report.html", turns, title="Chromium check")
    counts = _colour_counts(_screenshot(page, tmp_path))

    low, mid, high = counts[_rgb(LOW_FILL)], counts[_rgb(MID_FILL)], counts[_rgb(HIGH_FILL)]
    assert low > 2000 and mid > 2000, (low, mid)
    # Same bar width, three times the height.
    assert abs(low - mid) <= 0.05 * mid
    assert 2.7 < high / mid < 3.3, (high, mid)


def test_page_without_scores_draws_no_bars(tmp_path: Path) -> None:
    page = write_html(tmp_path / "empty.html", [], title="Nothing scored")
    counts = _colour_counts(_screenshot(page, tmp_path))
    assert all(counts[_rgb(fill)] == 0 for fill in (LOW_FILL, MID_FILL, HIGH_FILL))
    # The page itself rendered (text and axes are drawn), not a blank failure.
    assert len(counts) > 10
