#!/usr/bin/env bash
# Builds the custom OpenTelemetry Collector (collector-config/bin/otelcol-groundedness) from the pinned
# Go module in collector-config/otelcol. Idempotent: skips the build when the binary is newer than every
# Go source, go.mod and go.sum. Go's module and build caches (GOMODCACHE, GOCACHE) make rebuilds fast.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$here/otelcol"
bin="$here/bin/otelcol-groundedness"

if [ -x "$bin" ] && [ -z "$(find "$src" -newer "$bin" \( -name '*.go' -o -name go.mod -o -name go.sum \))" ]; then
  echo "collector: $bin is up to date"
  exit 0
fi

# The official toolchain first: go.mod needs Go 1.26, newer than a distribution's packaged go.
export PATH="/usr/local/go/bin:$PATH"
if ! command -v go >/dev/null; then
  echo "collector: no go toolchain found (Go >= 1.26 on PATH or in /usr/local/go)" >&2
  exit 1
fi

mkdir -p "$here/bin"
started=$(date +%s)
# go build fetches only the modules the binary needs (go mod download would fetch the whole graph, ~1 GB).
echo "collector: building with $(go version); a cold build (fetch + compile) takes a few minutes on 2 cores"
# -mod=mod lets go.sum be completed if a new Go toolchain wants extra checksums; go.mod pins the versions.
(cd "$src" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$bin.tmp" .)
mv "$bin.tmp" "$bin"
echo "collector: built $bin in $(( $(date +%s) - started ))s"
