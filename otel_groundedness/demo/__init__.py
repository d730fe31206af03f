"""The self-contained demo: a scripted local model server and an agent that talks to it.

``run_demo(DemoOptions(...)) -> DemoSummary`` runs it in-process; names load lazily so that
importing the fake model server does not pull in the agent's dependencies.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from otel_groundedness.demo.runner import DemoError, DemoOptions, run_demo
    from otel_groundedness.demo.summary import DemoSummary

_LAZY = {
    "DemoError": "otel_groundedness.demo.runner",
    "DemoOptions": "otel_groundedness.demo.runner",
    "run_demo": "otel_groundedness.demo.runner",
    "DemoSummary": "otel_groundedness.demo.summary",
}

__all__ = ["DemoError", "DemoOptions", "DemoSummary", "run_demo"]


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'otel_groundedness.demo' has no attribute {name!r}")
    return getattr(importlib.import_module(module_name), name)
