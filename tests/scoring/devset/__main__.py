"""``python -m tests.scoring.devset [-v]``: the table dev set's rates by form, operation, phrasing
and feature (``-v`` also lists every case that misses a target)."""

from __future__ import annotations

import sys

from tests.scoring.devset.measure import failures, load_cases, measure, report

outcomes = measure(load_cases())
print(report(outcomes))
if "-v" in sys.argv[1:]:
    print("cases missing a target (correct verdict; corrupted verdict):")
    print(failures(outcomes))
