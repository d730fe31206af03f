"""``otel-groundedness demo``: a tool-calling agent on the real ``openai`` client and instrumentation,
a scripted local model with injected faults, scored live by the processor."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from otel_groundedness.cli.argtypes import unit_interval
from otel_groundedness.cli.errors import CliError

HELP = "Run the self-contained demo: scripted agent traffic with injected faults, scored live."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--turns", type=_positive_int, default=60, metavar="N", help="turns to run (default 60)"
    )
    parser.add_argument(
        "--fault-rate",
        type=unit_interval,
        default=0.3,
        metavar="F",
        help="share of answers with a fault (default 0.3)",
    )
    parser.add_argument(
        "--seed", type=int, default=7, metavar="S", help="seed of the scenario plan (default 7)"
    )
    parser.add_argument(
        "--semconv",
        choices=("latest", "legacy"),
        default="latest",
        help="GenAI conventions of the instrumentation: latest = content on spans (default), "
        "legacy = content in log events",
    )
    parser.add_argument(
        "--stream-share",
        type=unit_interval,
        default=0.25,
        metavar="F",
        help="share of streamed responses (default 0.25)",
    )
    parser.add_argument(
        "--pace",
        type=_non_negative_number,
        default=0.0,
        metavar="TURNS_PER_SECOND",
        help="space the turns evenly at this rate, so scrapers see the counters grow (default 0 = as fast "
        "as possible)",
    )
    parser.add_argument(
        "--otlp-endpoint",
        metavar="URL",
        help="also export traces, logs and metrics: http(s)://HOST:PORT (OTLP/HTTP) or grpc://HOST:PORT",
    )
    parser.add_argument(
        "--otlp-unscored",
        action="store_true",
        help="export spans and logs over OTLP as the agent produced them, before scoring (for a scoring "
        "gateway downstream); the summary and reports still show the in-process scores",
    )
    parser.add_argument(
        "--otlp-file", type=Path, metavar="PATH", help="record the exported telemetry as OTLP JSON lines"
    )
    parser.add_argument(
        "--prometheus-port",
        type=_port,
        default=9464,
        metavar="P",
        help="serve metrics on 127.0.0.1:P (default 9464; 0 = off)",
    )
    parser.add_argument(
        "--linger",
        type=_non_negative_number,
        default=0.0,
        metavar="SECONDS",
        help="keep serving metrics this long after the last turn (default 0: the endpoint closes at exit)",
    )
    parser.add_argument("--no-live", action="store_true", help="no live progress display")
    parser.add_argument(
        "--html",
        type=Path,
        default=Path("out/demo-report.html"),
        metavar="PATH",
        help="HTML report (default out/demo-report.html)",
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write a JSON report")


def run(args: argparse.Namespace) -> int:
    from otel_groundedness.cli.console import wide_console
    from otel_groundedness.demo.runner import DemoError, DemoOptions, run_demo

    if args.otlp_unscored and not args.otlp_endpoint:
        raise CliError("--otlp-unscored needs --otlp-endpoint")
    options = DemoOptions(
        turns=args.turns,
        fault_rate=args.fault_rate,
        seed=args.seed,
        semconv=args.semconv,
        stream_share=args.stream_share,
        pace=args.pace,
        otlp_endpoint=args.otlp_endpoint,
        otlp_unscored=args.otlp_unscored,
        otlp_file=args.otlp_file,
        prometheus_port=args.prometheus_port,
        linger_s=args.linger,
        live=not args.no_live,
        html=args.html,
        json=args.json,
    )
    try:
        summary = run_demo(options, console=wide_console())
    except DemoError as error:
        raise CliError(str(error)) from None
    return 0 if summary.turns_scored else 1


def _positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1: {text!r}")
    return value


def _non_negative_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0: {text!r}")
    return value


def _port(text: str) -> int:
    value = _int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"not a port: {text!r}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
