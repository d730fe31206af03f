"""The ports the tests hand to the services they start: outside the kernel's ephemeral range, never twice."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests import free_ports
from tests.free_ports import ephemeral_range, free_port


def _kernel_range(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, low: int, high: int) -> None:
    """Make ``free_port`` read ``low high`` as the kernel's ephemeral range."""
    range_file = tmp_path / "ip_local_port_range"
    range_file.write_text(f"{low}\t{high}\n")
    monkeypatch.setattr(free_ports, "_PORT_RANGE_FILE", range_file)


def test_a_free_port_is_outside_the_range_outgoing_connections_draw_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _kernel_range(tmp_path, monkeypatch, 32768, 60999)  # the Linux default
    ports = [free_port() for _ in range(300)]
    assert all(20000 <= port < 32768 or 60999 < port <= 65535 for port in ports)
    assert any(port > 60999 for port in ports) and any(port < 32768 for port in ports)


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


def test_a_kernel_that_gives_every_port_to_outgoing_connections_still_gets_ports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _kernel_range(tmp_path, monkeypatch, 1024, 65535)
    assert ephemeral_range() == (1024, 65535)
    assert 20000 <= free_port() <= 65535
