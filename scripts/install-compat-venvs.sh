#!/usr/bin/env bash
# Extra virtual environments for instrumentation versions that cannot share the main one
# (filled in by the instrumentation tests' owner; each venv is created only when missing).
set -euo pipefail
exit 0
