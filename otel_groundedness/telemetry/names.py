"""Every attribute, event and metric name the product emits, defined once.

Dashboards, alert rules and tests read these constants (directly or through
``METRICS``) so that renaming an instrument breaks the build instead of a dashboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EVALUATION_NAME = "groundedness"

# --- gen_ai.evaluation.result (semconv event; emitted as a log record and a span event) ---
EVENT_EVALUATION_RESULT = "gen_ai.evaluation.result"
ATTR_EVALUATION_NAME = "gen_ai.evaluation.name"
ATTR_EVALUATION_SCORE_VALUE = "gen_ai.evaluation.score.value"
ATTR_EVALUATION_SCORE_LABEL = "gen_ai.evaluation.score.label"
ATTR_EVALUATION_EXPLANATION = "gen_ai.evaluation.explanation"
ATTR_RESPONSE_ID = "gen_ai.response.id"
ATTR_ERROR_TYPE = "error.type"

# --- span attributes on the enriched (scored) span; all under one prefix ---
SPAN_PREFIX = "gen_ai.evaluation.groundedness."
ATTR_SCORE = SPAN_PREFIX + "score"  # double in [0, 1]
ATTR_SCORE_PERCENT = SPAN_PREFIX + "score_percent"  # int 0..100, for integer-only samplers
ATTR_LABEL = SPAN_PREFIX + "label"
ATTR_ATOMS_TOTAL = SPAN_PREFIX + "atoms.total"
ATTR_ATOMS_SUPPORTED = SPAN_PREFIX + "atoms.supported"
ATTR_ATOMS_CONTRADICTED = SPAN_PREFIX + "atoms.contradicted"
ATTR_ATOMS_UNSUPPORTED = SPAN_PREFIX + "atoms.unsupported"
ATTR_EVIDENCE_TRUNCATED = SPAN_PREFIX + "evidence_truncated"
ATTR_ANSWER_TRUNCATED = SPAN_PREFIX + "answer_truncated"
# string[]: why evidence was cut or read as flat text (scoring.report.TruncationReason); only when any
ATTR_EVIDENCE_TRUNCATION_REASONS = SPAN_PREFIX + "evidence_truncation_reasons"
ATTR_BUDGET_EXCEEDED = SPAN_PREFIX + "budget_exceeded"  # the work budget ran out; some atoms unchecked
ATTR_ATOMS_UNCHECKED = SPAN_PREFIX + "atoms.unchecked"  # atoms left without a verdict by the budget
ATTR_STRICT_PASS = SPAN_PREFIX + "strict_pass"
ATTR_SENTENCE_SCORE = SPAN_PREFIX + "sentence_score"

# --- metric attribute keys (low cardinality only: never ids or content) ---
ATTR_PROVIDER = "gen_ai.provider.name"
ATTR_REQUEST_MODEL = "gen_ai.request.model"
ATTR_AGENT_NAME = "gen_ai.agent.name"
ATTR_OPERATION = "gen_ai.operation.name"
ATTR_ATOM_KIND = "groundedness.atom.kind"
ATTR_ATOM_VERDICT = "groundedness.atom.verdict"
ATTR_SKIP_REASON = "groundedness.skip.reason"
ATTR_EVICTION_REASON = "groundedness.eviction.reason"

SCORE_BUCKETS: tuple[float, ...] = tuple(round(i * 0.05, 2) for i in range(21))
LATENCY_BUCKETS_S: tuple[float, ...] = (
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
)

InstrumentType = Literal["histogram", "counter", "updowncounter", "observable_gauge"]


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """One instrument: its OTel name, type, unit, description and attribute keys."""

    name: str
    instrument: InstrumentType
    unit: str
    description: str
    attributes: tuple[str, ...]


_TURN_ATTRS = (ATTR_EVALUATION_NAME, ATTR_PROVIDER, ATTR_REQUEST_MODEL, ATTR_AGENT_NAME, ATTR_OPERATION)

METRIC_SCORE = MetricSpec(
    "gen_ai.evaluation.score",
    "histogram",
    "1",
    "Groundedness score of each scored turn (turns with no evidence or no factual content are not recorded)",
    (*_TURN_ATTRS, ATTR_EVALUATION_SCORE_LABEL),
)
METRIC_TURNS = MetricSpec(
    "groundedness.turns",
    "counter",
    "{turn}",
    "Evaluated turns by label, including no_evidence and no_factual_content",
    (*_TURN_ATTRS, ATTR_EVALUATION_SCORE_LABEL),
)
METRIC_ATOMS = MetricSpec(
    "groundedness.atoms",
    "counter",
    "{atom}",
    "Hard-data atoms checked, by kind and verdict",
    (*_TURN_ATTRS, ATTR_ATOM_KIND, ATTR_ATOM_VERDICT),
)
METRIC_SKIPPED = MetricSpec(
    "groundedness.turns.skipped",
    "counter",
    "{turn}",
    "GenAI spans or turns not scored, by reason (no_answer, content_not_captured, malformed, duplicate, ...)",
    (ATTR_SKIP_REASON,),
)
METRIC_QUEUE_DROPPED = MetricSpec(
    "groundedness.queue.dropped",
    "counter",
    "{span}",
    "Spans forwarded unscored because the scoring queue was full",
    (),
)
METRIC_QUEUE_SIZE = MetricSpec(
    "groundedness.queue.size",
    "observable_gauge",
    "{span}",
    "Spans waiting in the scoring queue",
    (),
)
METRIC_EVICTED = MetricSpec(
    "groundedness.pairing.evicted",
    "counter",
    "{trace}",
    "Traces dropped from the pairing buffer before completion, by reason (max_traces, max_bytes, ttl)",
    (ATTR_EVICTION_REASON,),
)
METRIC_BUDGET_EXCEEDED = MetricSpec(
    "groundedness.scoring.budget_exceeded",
    "counter",
    "{turn}",
    "Turns whose scoring ran out of its work budget, leaving some atoms unchecked",
    _TURN_ATTRS,
)
METRIC_DURATION = MetricSpec(
    "groundedness.scoring.duration",
    "histogram",
    "s",
    "Wall time spent scoring one turn on the worker thread",
    (ATTR_EVALUATION_NAME,),
)

METRICS: tuple[MetricSpec, ...] = (
    METRIC_SCORE,
    METRIC_TURNS,
    METRIC_ATOMS,
    METRIC_SKIPPED,
    METRIC_QUEUE_DROPPED,
    METRIC_QUEUE_SIZE,
    METRIC_EVICTED,
    METRIC_BUDGET_EXCEEDED,
    METRIC_DURATION,
)
