"""A panic in the engine surfaces as ``NativeEngineError`` (an ``Exception``, which the hosts catch and
count as a scoring error), never as pyo3's ``PanicException`` (a ``BaseException``); engine work
runs with the GIL released, so two threads' calls overlap."""

from __future__ import annotations

import threading
import time

import pytest

from otel_groundedness import _native


def test_a_panic_is_an_ordinary_exception() -> None:
    assert _native.boundary_check(7, False, 0) == 7
    with pytest.raises(_native.NativeEngineError, match="native engine panicked: boundary check 7"):
        _native.boundary_check(7, True, 0)
    assert issubclass(_native.NativeEngineError, RuntimeError)


def test_the_engine_is_usable_after_a_panic() -> None:
    for _ in range(3):
        with pytest.raises(Exception):  # noqa: B017 - exactly the hosts' catch
            _native.boundary_check(1, True, 0)
    assert _native.boundary_check(2, False, 0) == 2


def test_two_threads_calls_overlap() -> None:
    # Each call holds the engine for 300 ms of wall time: with the GIL released two threads take
    # about 300 ms together, holding it they would take 600 ms.
    threads = [threading.Thread(target=_native.boundary_check, args=(0, False, 300)) for _ in range(2)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert time.perf_counter() - started < 0.5
