#!/usr/bin/env bash
# Builds the custom OpenTelemetry Collector (collector-config/bin/otelcol-groundedness) from the pinned
# Go module in collector-config/otelcol. Idempotent: skips the build when the binary is newer than every
# Go source, go.mod and go.sum. Go's module and build caches (GOMODCACHE, GOCACHE) make rebuilds fast.
# Output: one line when the binary is up to date; otherwise one line per phase with its elapsed time
# (Go's own output is shown only when a phase fails).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$here/otelcol"
bin="$here/bin/otelcol-groundedness"

if [ -x "$bin" ] && [ -z "$(find "$src" -newer "$bin" \( -name '*.go' -o -name go.mod -o -name go.sum \))" ]; then
  echo "[collector] $bin is up to date"
  exit 0
fi

# The official toolchain first: go.mod needs Go 1.26, newer than a distribution's packaged go.
export PATH="/usr/local/go/bin:$PATH"
if ! command -v go >/dev/null; then
  echo "[collector] no go toolchain found (Go >= 1.26 on PATH or in /usr/local/go)" >&2
  exit 1
fi
# -mod=mod lets go.sum be completed if a new Go toolchain wants extra checksums; go.mod pins the versions.
export GOFLAGS=-mod=mod CGO_ENABLED=0

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# run_phase NAME COMMAND...: "[collector] NAME ... 12 s" on one line, started before the work.
run_phase() {
  local name=$1 phase_started=$SECONDS
  shift
  printf '[collector] %s ... ' "$name"
  if ! "$@" >"$log" 2>&1; then
    echo "failed after $(( SECONDS - phase_started )) s:"
    cat "$log" >&2
    exit 1
  fi
  printf '%s s' "$(( SECONDS - phase_started ))"
}

started=$SECONDS
mkdir -p "$here/bin"
cd "$src"
echo "[collector] building with $(go version | cut -d' ' -f3); a cold build (empty Go caches) takes about 4 minutes on 2 cores"
# Only the modules whose packages the binary imports (go mod download would fetch the whole graph, ~1 GB).
run_phase "downloading modules" go list -deps .
echo " ($(grep -c '^go: downloading' "$log" || true) modules fetched)"
run_phase "compiling" go build -trimpath -ldflags='-s -w' -o "$bin.tmp" .
echo
mv "$bin.tmp" "$bin"
echo "[collector] done in $(( SECONDS - started )) s: $bin"
