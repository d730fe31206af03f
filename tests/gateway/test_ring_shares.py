"""``otel-groundedness ring-shares``: where the front tier's load_balancing exporter would send traces,
predicted from the endpoint names alone (the e2e test checks the prediction against a real Collector)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from otel_groundedness.cli.main import main
from otel_groundedness.gateway.hash_ring import HashRing, ring_shares

# Names whose ring is uneven (one gateway +28%) and even (all within 5%), on the e2e test's addresses.
UNEVEN = ["127.0.0.11:54317", "127.0.0.12:54317", "127.0.0.13:54317"]
EVEN = ["127.0.0.11:24617", "127.0.0.12:24617", "127.0.0.13:24617"]


def test_the_shares_cover_the_ring_and_match_where_random_trace_ids_go() -> None:
    shares = ring_shares(UNEVEN)
    assert list(shares) == UNEVEN
    assert sum(shares.values()) == pytest.approx(1.0)
    ring, rng = HashRing(UNEVEN), random.Random(3)
    routed = Counter(ring.endpoint_for(rng.randbytes(16)) for _ in range(60_000))
    for endpoint in UNEVEN:  # 60,000 ids: a share varies by about 0.2 points (1 sigma)
        assert routed[endpoint] / 60_000 == pytest.approx(shares[endpoint], abs=0.008)
    assert max(shares.values()) > 0.4 > 0.36 > max(ring_shares(EVEN).values())


def test_the_ring_depends_on_the_names_not_their_order() -> None:
    ring, reversed_ring = HashRing(UNEVEN), HashRing(list(reversed(UNEVEN)))
    keys = [index.to_bytes(16, "big") for index in range(0, 2**32, 2**22)]
    assert [ring.endpoint_for(key) for key in keys] == [reversed_ring.endpoint_for(key) for key in keys]
    assert ring_shares(UNEVEN) != ring_shares(EVEN)


def test_one_endpoint_takes_everything() -> None:
    assert ring_shares(["only:4317"]) == {"only:4317": 1.0}


def test_cli_prints_each_share_and_fails_over_the_skew_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ring-shares", *UNEVEN, "--max-skew", "0.15"]) == 1
    out = capsys.readouterr().out
    for endpoint in UNEVEN:
        assert endpoint in out
    assert "over the" in out and "±15%" in out

    assert main(["ring-shares", *EVEN, "--max-skew", "0.15"]) == 0
    assert "within ±15%" in capsys.readouterr().out


def test_cli_without_a_limit_only_reports(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ring-shares", *UNEVEN]) == 0
    assert "worst" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ring-shares", "a:4317", "a:4317"], "named twice: a:4317"),
        (["ring-shares", "a:4317", "--max-skew", "2"], "must be between 0 and 1"),
        (["ring-shares"], "the following arguments are required"),
    ],
)
def test_cli_refuses_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as stopped:  # argparse's own refusals
        code = int(stopped.code or 0)
    assert code == 2
    assert message in capsys.readouterr().err
