#!/usr/bin/env bash
# Extra virtual environments for instrumentation versions that cannot share the main one.
# Each venv is created only when missing (idempotent); a half-built one is removed so the next run retries.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"

# OpenLLMetry <=0.54 writes the indexed gen_ai.prompt.N.* form; the main venv has the JSON-form release.
LEGACY_OPENLLMETRY=".venv-openllmetry-legacy"
if [ ! -x "$LEGACY_OPENLLMETRY/bin/python" ] || [ ! -f "$LEGACY_OPENLLMETRY/.installed" ]; then
    rm -rf "$LEGACY_OPENLLMETRY"
    "$PYTHON" -m venv "$LEGACY_OPENLLMETRY"
    "$LEGACY_OPENLLMETRY/bin/python" -m pip install --quiet \
        "opentelemetry-instrumentation-openai==0.53.4" \
        "opentelemetry-semantic-conventions-ai==0.5.1" \
        "opentelemetry-sdk==1.45.2" \
        "openai==3.57.0" \
        "httpx==0.28.1"
    touch "$LEGACY_OPENLLMETRY/.installed"
fi

# Strands Agents pins openai 2.x and an older OpenTelemetry SDK than the main venv.
STRANDS=".venv-strands"
if [ ! -x "$STRANDS/bin/python" ] || [ ! -f "$STRANDS/.installed" ]; then
    rm -rf "$STRANDS"
    "$PYTHON" -m venv "$STRANDS"
    "$STRANDS/bin/python" -m pip install --quiet "strands-agents[openai]==1.62.0"
    touch "$STRANDS/.installed"
fi

# The official GenAI packages moved to their own names on opentelemetry-util-genai 1.x; the main venv
# keeps opentelemetry-instrumentation-openai-v2, which needs util-genai 0.4b0. The marker names the
# package set, so a venv made for an earlier set is rebuilt.
GENAI_OPENAI=".venv-genai-openai"
GENAI_SET="genai-openai-1.3b0+openai-agents-1.3b0"
if [ ! -x "$GENAI_OPENAI/bin/python" ] || [ "$(cat "$GENAI_OPENAI/.installed" 2>/dev/null)" != "$GENAI_SET" ]; then
    rm -rf "$GENAI_OPENAI"
    "$PYTHON" -m venv "$GENAI_OPENAI"
    "$GENAI_OPENAI/bin/python" -m pip install --quiet \
        "opentelemetry-instrumentation-genai-openai==1.3b0" \
        "opentelemetry-instrumentation-genai-openai-agents==1.3b0" \
        "opentelemetry-util-genai==1.3b0" \
        "openai-agents==0.24.0" \
        "opentelemetry-sdk==1.45.2" \
        "openai==3.57.0" \
        "httpx==0.28.1"
    echo "$GENAI_SET" > "$GENAI_OPENAI/.installed"
fi

# Google ADK pins an older OpenTelemetry SDK (1.44) than the main venv; openai is for the test's
# bridge from ADK's model interface to the fake model server.
ADK=".venv-adk"
if [ ! -x "$ADK/bin/python" ] || [ ! -f "$ADK/.installed" ]; then
    rm -rf "$ADK"
    "$PYTHON" -m venv "$ADK"
    "$ADK/bin/python" -m pip install --quiet "google-adk==2.13.0" "openai==3.57.0" "httpx==0.28.1"
    touch "$ADK/.installed"
fi
