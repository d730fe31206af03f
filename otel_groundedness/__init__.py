"""otel-groundedness: flag invented or corrupted hard facts in LLM agent answers.

Public names are imported lazily: ``from otel_groundedness import score`` loads only the
stdlib scoring core, never the OpenTelemetry SDK.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from otel_groundedness.processor.log_processor import GroundednessLogRecordProcessor
    from otel_groundedness.processor.span_processor import GroundednessSpanProcessor
    from otel_groundedness.scoring import (
        AtomVerdict,
        Evidence,
        GroundednessPolicy,
        GroundednessReport,
        score,
    )

_LAZY = {
    "AtomVerdict": "otel_groundedness.scoring",
    "Evidence": "otel_groundedness.scoring",
    "GroundednessPolicy": "otel_groundedness.scoring",
    "GroundednessReport": "otel_groundedness.scoring",
    "score": "otel_groundedness.scoring",
    "GroundednessSpanProcessor": "otel_groundedness.processor.span_processor",
    "GroundednessLogRecordProcessor": "otel_groundedness.processor.log_processor",
}

__all__ = [
    "AtomVerdict",
    "Evidence",
    "GroundednessLogRecordProcessor",
    "GroundednessPolicy",
    "GroundednessReport",
    "GroundednessSpanProcessor",
    "score",
]


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'otel_groundedness' has no attribute {name!r}")
    return getattr(importlib.import_module(module_name), name)
