"""Convention adapters: one module per producer family, each reading raw span or log
attributes into neutral ``SpanFacts`` / ``LogFacts`` (see ``otel_groundedness.records``)."""
