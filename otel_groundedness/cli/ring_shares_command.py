"""``otel-groundedness ring-shares``: how evenly a front tier's ``load_balancing`` exporter would spread
traces over these gateway endpoints (docs/gateway.md, "How the exporter routes")."""

from __future__ import annotations

import argparse
from collections import Counter

from otel_groundedness.cli.argtypes import unit_interval
from otel_groundedness.cli.errors import EXIT_GATE_FAILED, CliError

HELP = "Predict each gateway's share of traces behind the Collector's load_balancing exporter."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "endpoints",
        nargs="+",
        metavar="HOST:PORT",
        help="the gateway endpoints exactly as the front tier's resolver lists them",
    )
    parser.add_argument(
        "--max-skew",
        type=unit_interval,
        metavar="FRACTION",
        help="exit 1 when a share is off an even share by more than this (0.15 = ±15%%)",
    )


def run(args: argparse.Namespace) -> int:
    from otel_groundedness.gateway.hash_ring import ring_shares

    endpoints: list[str] = args.endpoints
    repeated = sorted(endpoint for endpoint, times in Counter(endpoints).items() if times > 1)
    if repeated:
        raise CliError(f"an endpoint is named twice: {', '.join(repeated)}")
    shares = ring_shares(endpoints)
    even = 1 / len(endpoints)
    width = max(len(endpoint) for endpoint in endpoints)
    print(f"{'endpoint':<{width}}  share of traces  vs an even share")
    skews = {endpoint: share / even - 1 for endpoint, share in shares.items()}
    for endpoint, share in shares.items():
        print(f"{endpoint:<{width}}  {share:>15.1%}  {skews[endpoint]:+.1%}")
    worst = max(skews, key=lambda endpoint: abs(skews[endpoint]))
    line = f"worst: {skews[worst]:+.1%} ({worst})"
    if args.max_skew is None:
        print(line)
        return 0
    over = abs(skews[worst]) > args.max_skew
    print(f"{line}: {'over the' if over else 'within'} ±{args.max_skew:.0%} limit")
    return EXIT_GATE_FAILED if over else 0
