"""Entry point of the ``otel-groundedness`` command: dispatches to one module per subcommand.

Each subcommand module exposes ``HELP: str``, ``add_arguments(parser)`` and
``run(args) -> int``; modules are imported only when their subcommand runs, so
``score`` never pays for the demo's or replay's imports.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

SUBCOMMANDS: dict[str, str] = {
    "score": "otel_groundedness.cli.score_command",
    "replay": "otel_groundedness.cli.replay_command",
    "demo": "otel_groundedness.cli.demo_command",
}


def _load(module_name: str) -> Any:
    return importlib.import_module(module_name)


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """Build the parser; only the chosen subcommand's module is imported."""
    parser = argparse.ArgumentParser(
        prog="otel-groundedness",
        description="Score LLM answers against the tool results of their own turn.",
    )
    sub = parser.add_subparsers(dest="command", metavar="{" + ",".join(SUBCOMMANDS) + "}")
    chosen = next((a for a in argv if a in SUBCOMMANDS), None)
    for name, module_name in SUBCOMMANDS.items():
        if name == chosen:
            module = _load(module_name)
            sub_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
            module.add_arguments(sub_parser)
            sub_parser.set_defaults(_run=module.run)
        else:
            sub.add_parser(name, help=f"see: otel-groundedness {name} --help")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list)
    args = parser.parse_args(args_list)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return 2
    return int(run(args))


if __name__ == "__main__":
    sys.exit(main())
