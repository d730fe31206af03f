"""The ``--policy FILE`` loader that ``score`` and ``replay`` share."""

from __future__ import annotations

import json
from pathlib import Path

from otel_groundedness.cli.errors import CliError
from otel_groundedness.scoring import GroundednessPolicy


def load_policy(path: Path) -> GroundednessPolicy:
    """A policy from a JSON object of ``GroundednessPolicy`` fields; ``CliError`` says what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise CliError(f"invalid policy file {path}: not UTF-8 (byte {error.start})") from None
    except OSError as error:
        raise CliError(f"cannot read policy file {path}: {error.strerror or error}") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise CliError(f"invalid policy file {path}: not valid JSON (nested too deeply)") from None
    except ValueError as error:  # also integers past Python's digit limit
        raise CliError(f"invalid policy file {path}: not valid JSON ({error})") from None
    try:
        return GroundednessPolicy.from_dict(data)
    except (ValueError, TypeError, OverflowError) as error:  # a value of the wrong type, or too large
        raise CliError(f"invalid policy file {path}: {error}") from None
