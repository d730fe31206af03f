"""The replay JSON report is laid out as ``json.dumps(report, indent=2)``, but written in pieces: the
items of its long lists are laid out on their own, where their turns are scored."""

from __future__ import annotations

import json
import textwrap
from typing import Any


def list_item(item: Any, depth: int) -> str:
    """``item`` as an element of a list that is the value of a key ``depth`` objects deep."""
    return textwrap.indent(json.dumps(item, indent=2), "  " * (depth + 1))
