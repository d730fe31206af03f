"""Argument types shared by the subcommands: parse, range-check, and say what was wrong."""

from __future__ import annotations

import argparse


def unit_interval(text: str) -> float:
    """A number from 0 to 1 (a share or a score)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1: {text!r}")
    return value
