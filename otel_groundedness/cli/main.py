"""Entry point of the ``otel-groundedness`` command: dispatches to one module per subcommand.

Each subcommand module exposes ``HELP: str``, ``add_arguments(parser)`` and
``run(args) -> int``; modules are imported only when their subcommand runs, so
``score`` never pays for the demo's or replay's imports.

Exit 1 means "a gate failed", so no failure may end with it: input or output the command cannot use
(``CliError``) and a closed stdout exit 2, an interrupt 130, a bug 3, each with one line on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from otel_groundedness.cli.errors import (
    DEBUG_VARIABLE,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    CliError,
)
from otel_groundedness.scoring.policy import PolicyFileError

SUBCOMMANDS: dict[str, str] = {
    "score": "otel_groundedness.cli.score_command",
    "replay": "otel_groundedness.cli.replay_command",
    "demo": "otel_groundedness.cli.demo_command",
    "gateway": "otel_groundedness.cli.gateway_command",
    "ring-shares": "otel_groundedness.cli.ring_shares_command",
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
    prog = "otel-groundedness"
    try:
        parser = build_parser(args_list)
        args = parser.parse_args(args_list)
        run = getattr(args, "_run", None)
        if run is None:
            parser.print_help()
            return EXIT_INVALID
        prog = f"otel-groundedness {args.command}"
        code = int(run(args))
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        return code
    except (CliError, PolicyFileError) as error:  # PolicyFileError: any command's --policy
        return _fail(prog, f"error: {error}", EXIT_INVALID)
    except KeyboardInterrupt:
        return _fail(prog, "interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:
        _discard_stdout()
        return _fail(prog, "error: output closed early (broken pipe)", EXIT_INVALID)
    except Exception as error:
        if os.environ.get(DEBUG_VARIABLE):
            raise
        detail = f"{type(error).__name__}: {error}"
        return _fail(
            prog, f"internal error: {detail} (set {DEBUG_VARIABLE}=1 for the traceback)", EXIT_INTERNAL
        )


def _fail(prog: str, message: str, code: int) -> int:
    with contextlib.suppress(OSError):  # stderr gone too: the exit code is all that is left to say it
        print(f"{prog}: {' '.join(message.splitlines())}", file=sys.stderr, flush=True)
    return code


def _discard_stdout() -> None:
    # Python flushes stdout once more at exit; pointed at /dev/null, that flush cannot fail again.
    with contextlib.suppress(
        OSError, ValueError
    ):  # no stdout descriptor (a replaced stream): no flush to fail
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
