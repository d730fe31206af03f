"""``otel-groundedness gateway``: the core as an OTLP service (docs/gateway.md).

OTLP in (gRPC, HTTP), GenAI spans held per trace until the trace is idle, each trace scored whole by
``core.score_trace``, enriched spans and ``gen_ai.evaluation.result`` records out over OTLP. Every
accepted request is in a write-ahead log before it is acknowledged (``write_ahead_log``), and log
records go to the gateway owning their trace when the front tier's ring is known (``ring``,
``log_routing``). The gateway only converts and moves data; pairing and scoring are the core's.
"""
