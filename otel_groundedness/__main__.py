"""``python -m otel_groundedness`` runs the command line."""

import sys

from otel_groundedness.cli.main import main

if __name__ == "__main__":  # not when a replay worker process imports it
    sys.exit(main())
