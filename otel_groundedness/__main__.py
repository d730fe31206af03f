"""``python -m otel_groundedness`` runs the command line."""

import sys

from otel_groundedness.cli.main import main

sys.exit(main())
