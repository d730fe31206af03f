# Defaults for the environment variables the provisioning files read (a local stack on loopback).
# Load it into Grafana's environment, e.g. `set -a; . dashboards/provisioning/env.sh; set +a`,
# after exporting your own values to override any of them.
PROMETHEUS_URL=${PROMETHEUS_URL:-http://127.0.0.1:9090}
JAEGER_URL=${JAEGER_URL:-http://127.0.0.1:16686}
TEMPO_URL=${TEMPO_URL:-http://127.0.0.1:3200}
LOKI_URL=${LOKI_URL:-http://127.0.0.1:3100}
GROUNDEDNESS_DASHBOARDS_PATH=${GROUNDEDNESS_DASHBOARDS_PATH:-$PWD/dashboards/grafana}
GF_PATHS_PROVISIONING=${GF_PATHS_PROVISIONING:-$PWD/dashboards/provisioning}
