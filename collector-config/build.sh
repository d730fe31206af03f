#!/usr/bin/env bash
# Builds a Go binary of the stack from a pinned Go module of its own:
#   build.sh            the custom OpenTelemetry Collector (otelcol/ -> bin/otelcol-groundedness)
#   build.sh jaeger     Jaeger v2, the trace store (jaeger/, a `go get -tool` module -> bin/jaeger)
# Idempotent: skips the build when the binary is newer than every Go source, go.mod and go.sum. Go's
# module and build caches (GOMODCACHE, GOCACHE) make rebuilds fast.
# Output: one line when the binary is up to date; otherwise one line per phase with its elapsed time
# (Go's own output is shown only when a phase fails).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
case "${1:-collector}" in
  collector) name=collector src="$here/otelcol" pkg=. bin="$here/bin/otelcol-groundedness" ;;
  # The module only pins Jaeger's versions (a `tool` line in go.mod); the package is Jaeger's own.
  jaeger) name=jaeger src="$here/jaeger" pkg=github.com/jaegertracing/jaeger/cmd/jaeger bin="$here/bin/jaeger" ;;
  *) echo "usage: $0 [collector|jaeger]" >&2; exit 2 ;;
esac

if [ -x "$bin" ] && [ -z "$(find "$src" -newer "$bin" \( -name '*.go' -o -name go.mod -o -name go.sum \))" ]; then
  echo "[$name] $bin is up to date"
  exit 0
fi

# The official toolchain first: go.mod needs Go 1.26, newer than a distribution's packaged go.
export PATH="/usr/local/go/bin:$PATH"
if ! command -v go >/dev/null; then
  echo "[$name] no go toolchain found (Go >= 1.26 on PATH or in /usr/local/go)" >&2
  exit 1
fi
# -mod=mod lets go.sum be completed if a new Go toolchain wants extra checksums; go.mod pins the versions.
export GOFLAGS=-mod=mod CGO_ENABLED=0

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# run_phase PHASE COMMAND...: "[name] PHASE ... 12 s" on one line, started before the work.
run_phase() {
  local phase=$1 phase_started=$SECONDS
  shift
  printf '[%s] %s ... ' "$name" "$phase"
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
echo "[$name] building with $(go version | cut -d' ' -f3); a cold build (empty Go caches) takes about 4-5 minutes on 2 cores"
# Only the modules whose packages the binary imports (go mod download would fetch the whole graph, ~1 GB).
run_phase "downloading modules" go list -deps "$pkg"
echo " ($(grep -c '^go: downloading' "$log" || true) modules fetched)"
run_phase "compiling" go build -trimpath -ldflags='-s -w' -o "$bin.tmp" "$pkg"
echo
mv "$bin.tmp" "$bin"
echo "[$name] done in $(( SECONDS - started )) s: $bin"
