"""The one SDK-free evaluation core: neutral records in, decisions and enriched records out.

Every host calls it the same way: the live processor (``processor/``, handles are SDK spans), replay
(``replay/``, handles are recorded spans) and the gateway (``gateway/``, handles are received spans).
A host converts its input into ``SpanRecord``/``LogEventRecord`` and writes the decisions back out in
its own medium; reading, pairing, scoring, rendering and metrics live here (docs/decisions.md). The
hosts import this package and ``otlp/``, never one another (``tests/test_layering.py``).
"""

from otel_groundedness.core.evaluation import Evaluation, enrich_record, evaluate
from otel_groundedness.core.evaluation_core import Decision, EvaluationCore
from otel_groundedness.core.intake import is_genai_input, opens_agent, takes_span, takes_span_keys
from otel_groundedness.core.trace_feed import score_trace

__all__ = [
    "Decision",
    "Evaluation",
    "EvaluationCore",
    "enrich_record",
    "evaluate",
    "is_genai_input",
    "opens_agent",
    "score_trace",
    "takes_span",
    "takes_span_keys",
]
