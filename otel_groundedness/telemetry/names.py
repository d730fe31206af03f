"""Every attribute, event and metric name the product emits, defined once.

Dashboards, alert rules and tests read these constants (directly or through
``METRICS``) so that renaming an instrument breaks the build instead of a dashboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EVALUATION_NAME = "groundedness"
# The instrumentation scope of everything the product emits (evaluation records, metrics).
INSTRUMENTATION_SCOPE = "otel_groundedness"

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
# string[]: why evidence was cut or read as flat text (scoring.results.TruncationReason); only when any
ATTR_EVIDENCE_TRUNCATION_REASONS = SPAN_PREFIX + "evidence_truncation_reasons"
ATTR_BUDGET_EXCEEDED = SPAN_PREFIX + "budget_exceeded"  # the work budget ran out; some atoms unchecked
ATTR_ATOMS_UNCHECKED = SPAN_PREFIX + "atoms.unchecked"  # atoms left without a verdict by the budget
ATTR_STRICT_PASS = SPAN_PREFIX + "strict_pass"
ATTR_SENTENCE_SCORE = SPAN_PREFIX + "sentence_score"
# Provenance, on the span and the evaluation event/record. The semconv proposal for
# gen_ai.evaluation.evaluator.* is still open, so these stay in the project namespace (decisions.md).
ATTR_EVALUATOR_ID = SPAN_PREFIX + "evaluator.id"
ATTR_EVALUATOR_VERSION = SPAN_PREFIX + "evaluator.version"
ATTR_EVALUATOR_TYPE = SPAN_PREFIX + "evaluator.type"
ATTR_POLICY_FINGERPRINT = SPAN_PREFIX + "policy.fingerprint"

# --- metric attribute keys (low cardinality only: never ids or content) ---
# Values copied from spans (provider, model, agent name) are cut to this many characters.
MAX_METRIC_ATTRIBUTE_CHARS = 128
ATTR_PROVIDER = "gen_ai.provider.name"
ATTR_REQUEST_MODEL = "gen_ai.request.model"
ATTR_AGENT_NAME = "gen_ai.agent.name"
ATTR_OPERATION = "gen_ai.operation.name"
ATTR_ATOM_KIND = "groundedness.atom.kind"
ATTR_ATOM_VERDICT = "groundedness.atom.verdict"
ATTR_SKIP_REASON = "groundedness.skip.reason"
ATTR_EVICTION_REASON = "groundedness.eviction.reason"
ATTR_METRIC_EVALUATOR_VERSION = "groundedness.evaluator.version"
ATTR_METRIC_POLICY_FINGERPRINT = "groundedness.policy.fingerprint"
ATTR_GATEWAY_SIGNAL = "groundedness.gateway.signal"  # traces, logs
ATTR_GATEWAY_REASON = "groundedness.gateway.reason"

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


_TURN_ATTRS = (
    ATTR_EVALUATION_NAME,
    ATTR_PROVIDER,
    ATTR_REQUEST_MODEL,
    ATTR_AGENT_NAME,
    ATTR_OPERATION,
    ATTR_METRIC_EVALUATOR_VERSION,
)

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

METRIC_EVALUATOR_INFO = MetricSpec(
    "groundedness.evaluator.info",
    "observable_gauge",
    "{evaluator}",
    "Always 1: the scorer version and policy fingerprint this process scores with (one series each)",
    (ATTR_METRIC_EVALUATOR_VERSION, ATTR_METRIC_POLICY_FINGERPRINT),
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
    METRIC_EVALUATOR_INFO,
)

# --- the gateway's own health (otel-groundedness gateway); scoring itself reports through METRICS ---
METRIC_GATEWAY_RECEIVED = MetricSpec(
    "groundedness.gateway.received",
    "counter",
    "{item}",
    "Spans and log records accepted from senders, by signal",
    (ATTR_GATEWAY_SIGNAL,),
)
METRIC_GATEWAY_REFUSED = MetricSpec(
    "groundedness.gateway.refused",
    "counter",
    "{request}",
    "Export requests refused, by reason: buffer_full, queue_full, log_full, draining (retryable); malformed, "
    "too_large, unsupported_media_type (not)",
    (ATTR_GATEWAY_REASON,),
)
METRIC_GATEWAY_EXPORTED = MetricSpec(
    "groundedness.gateway.exported",
    "counter",
    "{item}",
    "Spans (forwarded or enriched) and log records (forwarded or evaluation results) delivered downstream",
    (ATTR_GATEWAY_SIGNAL,),
)
METRIC_GATEWAY_EXPORT_FAILURES = MetricSpec(
    "groundedness.gateway.export.failures",
    "counter",
    "{request}",
    "Downstream export attempts that failed (each retry counts)",
    (ATTR_GATEWAY_SIGNAL,),
)
METRIC_GATEWAY_DROPPED = MetricSpec(
    "groundedness.gateway.dropped",
    "counter",
    "{item}",
    "Spans and log records given up: refused by downstream, out of retries, or past the shutdown deadline",
    (ATTR_GATEWAY_SIGNAL, ATTR_GATEWAY_REASON),
)
METRIC_GATEWAY_UNSCORED = MetricSpec(
    "groundedness.gateway.unscored",
    "counter",
    "{span}",
    "Held GenAI spans forwarded without scoring, by reason (shutdown_deadline, error)",
    (ATTR_GATEWAY_REASON,),
)
METRIC_GATEWAY_HELD_TRACES = MetricSpec(
    "groundedness.gateway.held.traces",
    "observable_gauge",
    "{trace}",
    "Traces held until they are idle, to be scored whole",
    (),
)
METRIC_GATEWAY_HELD_BYTES = MetricSpec(
    "groundedness.gateway.held.bytes",
    "observable_gauge",
    "By",
    "Bytes held for those traces (serialized spans, estimated log content), bounded by max_buffer_bytes",
    (),
)
METRIC_GATEWAY_QUEUE_ITEMS = MetricSpec(
    "groundedness.gateway.export.queue.size",
    "observable_gauge",
    "{item}",
    "Spans and log records waiting for, or in, a downstream export",
    (),
)
METRIC_GATEWAY_QUEUE_BYTES = MetricSpec(
    "groundedness.gateway.export.queue.bytes",
    "observable_gauge",
    "By",
    "Bytes of the export requests waiting or in flight, bounded by max_export_queue_bytes",
    (),
)
METRIC_GATEWAY_DUPLICATES = MetricSpec(
    "groundedness.gateway.duplicates",
    "counter",
    "{span}",
    "Spans received again within the duplicate window (a sender's retry of an accepted request), left out",
    (),
)
METRIC_GATEWAY_REPLAYED = MetricSpec(
    "groundedness.gateway.replayed",
    "counter",
    "{item}",
    "Spans and log records taken from the write-ahead log at start (not released before the last stop)",
    (ATTR_GATEWAY_SIGNAL,),
)
METRIC_GATEWAY_REROUTED = MetricSpec(
    "groundedness.gateway.rerouted",
    "counter",
    "{log_record}",
    "Log records sent to the gateway that owns their trace (to_owner), or downstream unpaired because "
    "that gateway could not be reached (owner_unreachable)",
    (ATTR_GATEWAY_REASON,),
)
METRIC_GATEWAY_WAL_BYTES = MetricSpec(
    "groundedness.gateway.wal.bytes",
    "observable_gauge",
    "By",
    "Bytes of requests in the write-ahead log not yet released, bounded by max_wal_bytes",
    (),
)

GATEWAY_METRICS: tuple[MetricSpec, ...] = (
    METRIC_GATEWAY_RECEIVED,
    METRIC_GATEWAY_REFUSED,
    METRIC_GATEWAY_EXPORTED,
    METRIC_GATEWAY_EXPORT_FAILURES,
    METRIC_GATEWAY_DROPPED,
    METRIC_GATEWAY_UNSCORED,
    METRIC_GATEWAY_HELD_TRACES,
    METRIC_GATEWAY_HELD_BYTES,
    METRIC_GATEWAY_QUEUE_ITEMS,
    METRIC_GATEWAY_QUEUE_BYTES,
    METRIC_GATEWAY_DUPLICATES,
    METRIC_GATEWAY_REPLAYED,
    METRIC_GATEWAY_REROUTED,
    METRIC_GATEWAY_WAL_BYTES,
)
