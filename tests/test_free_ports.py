"""The ports the tests hand to the services they start: outside the kernel's ephemeral range, never twice."""

from __future__ import annotations

import socket

from tests.free_ports import ephemeral_range, free_port


def test_a_free_port_is_outside_the_range_outgoing_connections_draw_from() -> None:
    low, high = ephemeral_range()
    for _ in range(200):
        port = free_port()
        assert not low <= port <= high
        assert 1024 < port < 65536


def test_no_port_is_handed_out_twice() -> None:
    ports = [free_port() for _ in range(500)]
    assert len(set(ports)) == len(ports)


def test_the_port_can_be_bound_when_handed_out() -> None:
    port = free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
        sock.listen()


def test_a_port_something_listens_on_is_skipped() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", free_port()))
        busy.listen()
        taken = busy.getsockname()[1]
        spare = free_port()
        assert free_port(candidates=[taken, taken + 1, spare]) not in (taken, spare)


def test_running_out_of_candidates_says_so() -> None:
    used = free_port()
    try:
        free_port(candidates=[used])
    except RuntimeError as error:
        assert "no free port" in str(error)
    else:
        raise AssertionError("a handed-out port was handed out again")
