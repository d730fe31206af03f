"""``otel-groundedness gateway``: the scoring gateway, an OTLP service (docs/gateway.md)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from otel_groundedness.cli.errors import CliError

HELP = "Run the scoring gateway: OTLP in, GenAI traces scored whole, enriched OTLP out."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from otel_groundedness.gateway.settings import SETTINGS, default_text

    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="YAML file of settings (the flags' names with underscores)",
    )
    for setting in SETTINGS:
        parser.add_argument(
            setting.flag,
            dest=setting.name,
            metavar=setting.metavar,
            help=f"{setting.help} (env {setting.env}; default {default_text(setting)})",
        )
    parser.add_argument(
        "--policy",
        type=Path,
        metavar="FILE",
        help="scoring policy: a JSON object of GroundednessPolicy fields (default: the config file's "
        "policy mapping, else the OTEL_GROUNDEDNESS_* policy variables)",
    )


def run(args: argparse.Namespace) -> int:
    from otel_groundedness.gateway.runner import run_gateway
    from otel_groundedness.gateway.settings import SETTINGS, ConfigError, load_settings
    from otel_groundedness.scoring import GroundednessPolicy

    policy = GroundednessPolicy.from_file(args.policy) if args.policy is not None else None
    flags = {setting.name: getattr(args, setting.name) for setting in SETTINGS}
    try:
        settings = load_settings(flags, os.environ, args.config, policy)
        return run_gateway(settings, os.environ)
    except (ConfigError, OSError) as error:
        raise CliError(str(error)) from None
