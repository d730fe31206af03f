"""The ``otel-groundedness`` command line: score, replay and demo subcommands."""
