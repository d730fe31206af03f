"""The gateway process tunes the garbage collector once assembled: what exists is frozen, and young
objects are collected less often than Python's default."""

from __future__ import annotations

import gc

from otel_groundedness.gateway.runner import YOUNG_COLLECTION_ALLOCATIONS, tune_collector


def test_the_collector_is_tuned_for_many_short_lived_objects() -> None:
    before = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_threshold() == (YOUNG_COLLECTION_ALLOCATIONS, before[1], before[2])
        assert before[0] < YOUNG_COLLECTION_ALLOCATIONS
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
