"""The front tier's ring as a gateway sees it: the owner of a trace is the endpoint its spans go to
(keyed by the trace id's bytes), as the exporter's static or DNS resolver names it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from otel_groundedness.gateway.hash_ring import HashRing
from otel_groundedness.gateway.ring import DnsRefresher, RingView, dns_endpoints
from otel_groundedness.gateway.settings import ConfigError, load_settings

ENDPOINTS = ["10.0.0.1:4317", "10.0.0.2:4317", "10.0.0.3:4317"]


def test_a_gateway_owns_the_traces_whose_spans_the_front_tier_sends_it() -> None:
    ring = HashRing(ENDPOINTS)
    views = [RingView(ENDPOINTS, endpoint) for endpoint in ENDPOINTS]
    for _ in range(300):
        trace_id = os.urandom(16)
        spans_at = ring.endpoint_for(trace_id)
        owners = [view.owner(trace_id) for view in views]
        assert owners == [None if endpoint == spans_at else spans_at for endpoint in ENDPOINTS]


def test_a_gateway_the_ring_does_not_name_sends_nothing_elsewhere() -> None:
    view = RingView(ENDPOINTS, "10.0.0.9:4317")  # a rollout: not in the ring yet
    assert all(view.owner(os.urandom(16)) is None for _ in range(50))


def test_dns_endpoints_are_named_as_the_exporters_dns_resolver_names_them() -> None:
    endpoints = dns_endpoints("localhost", 4317)
    assert "127.0.0.1:4317" in endpoints
    assert all(e == "127.0.0.1:4317" or e.startswith("[") for e in endpoints)  # IPv6 in brackets
    assert endpoints == sorted(endpoints)


def test_a_failed_lookup_keeps_the_last_ring() -> None:
    view = RingView([], ENDPOINTS[0])
    answers: list[list[str] | OSError] = [ENDPOINTS, OSError("no such host")]

    def resolve() -> list[str]:
        answer = answers.pop(0)
        if isinstance(answer, OSError):
            raise answer
        return answer

    refresher = DnsRefresher(view, resolve, interval_s=60)
    refresher.refresh()
    refresher.refresh()
    assert view.endpoints == tuple(ENDPOINTS)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"ring_endpoints": "[a:4317, b:4317]"}, "needs ring_self"),
        ({"ring_endpoints": "a:4317,b:4317", "ring_self": "c:4317"}, "not one of ring_endpoints"),
        ({"ring_endpoints": "a:4317", "ring_dns_hostname": "g", "ring_self": "a:4317"}, "exclude each other"),
        ({"ring_endpoints": "[]"}, "invalid --ring-endpoints: no endpoints"),
    ],
)
def test_ring_settings_are_checked(tmp_path: Path, flags: dict[str, str | None], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(flags, {"XDG_STATE_HOME": str(tmp_path)})


def test_ring_endpoints_read_like_the_front_tiers_variable(tmp_path: Path) -> None:
    environ = {
        "OTEL_GROUNDEDNESS_GATEWAY_RING_ENDPOINTS": "[g1:4317, g2:4317, g3:4317]",
        "OTEL_GROUNDEDNESS_GATEWAY_RING_SELF": "g2:4317",
    }
    settings = load_settings({}, environ)
    assert settings.ring_endpoints == ("g1:4317", "g2:4317", "g3:4317")
    config = tmp_path / "gateway.yaml"
    config.write_text("ring_endpoints: [g1:4317, g2:4317]\nring_self: g1:4317\n")
    assert load_settings({}, {}, config).ring_endpoints == ("g1:4317", "g2:4317")
