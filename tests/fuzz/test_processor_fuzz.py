"""A short run of the hostile-traffic fuzzer in every ``make test``; ``make fuzz`` runs 200,000 spans."""

from __future__ import annotations

import pytest

from tests.fuzz.hostile_spans import run


@pytest.mark.parametrize("seed", [1, 2])
def test_hostile_traffic_n_spans_in_n_spans_out(seed: int) -> None:
    outcome = run(1_500, seed, max_traces=16, max_buffer_bytes=4 * 1024 * 1024, max_queue_size=256)
    assert outcome.caller_exceptions == 0
    assert outcome.missing == 0 and outcome.duplicates == 0
    assert outcome.spans_out == outcome.spans_in
    assert outcome.worker_errors == 0
