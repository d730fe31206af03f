"""The trace buffer's rules: a trace is due once idle for ``idle_s`` or held for ``max_wait_s``, and
the bounds (traces, bytes) refuse what does not fit instead of evicting a trace before it is whole."""

from __future__ import annotations

from otel_groundedness.gateway.trace_buffer import Arrival, TraceBuffer


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def buffer(clock: Clock, *, max_traces: int = 10, max_bytes: int = 1000) -> TraceBuffer:
    return TraceBuffer(max_traces=max_traces, max_bytes=max_bytes, idle_s=5, max_wait_s=20, clock=clock)


def test_a_trace_is_due_when_idle_and_each_arrival_restarts_the_wait() -> None:
    clock = Clock()
    held = buffer(clock)
    held.add({b"a": Arrival(size=10)})
    clock.now = 4
    held.add({b"a": Arrival(size=10), b"b": Arrival(size=10)})
    clock.now = 8.9
    assert held.take_due(10_000) == []
    next_due = held.seconds_to_next_due()
    assert next_due is not None and abs(next_due - 0.1) < 1e-9
    clock.now = 9
    assert [trace.trace_id for trace in held.take_due(10_000)] == [b"a", b"b"]
    assert (held.trace_count, held.byte_count, held.seconds_to_next_due()) == (0, 0, None)


def test_a_trace_that_never_goes_quiet_is_due_after_the_longest_wait() -> None:
    clock = Clock()
    held = buffer(clock)
    for second in range(0, 21, 4):
        clock.now = second
        held.add({b"chatty": Arrival(size=1)})
    assert [trace.trace_id for trace in held.take_due(10_000)] == [b"chatty"]


def test_bounds_refuse_instead_of_evicting() -> None:
    clock = Clock()
    held = buffer(clock, max_traces=2, max_bytes=100)
    held.add({b"a": Arrival(size=60), b"b": Arrival(size=10)})
    assert not held.has_room({b"c": Arrival(size=1)})  # a third trace
    assert held.has_room({b"a": Arrival(size=30)})  # more of a held one fits
    assert not held.has_room({b"a": Arrival(size=31)})  # over the bytes
    assert held.trace_count == 2


def test_take_due_stops_at_the_batch_size_but_always_takes_one() -> None:
    clock = Clock()
    held = buffer(clock)
    held.add({b"a": Arrival(size=50), b"b": Arrival(size=50), b"c": Arrival(size=50)})
    clock.now = 5
    assert len(held.take_due(10)) == 1
    assert len(held.take_due(100)) == 2
