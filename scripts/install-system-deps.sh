#!/usr/bin/env bash
# Installs the Debian packages the end-to-end tests need, only when missing.
set -euo pipefail
need=()
command -v prometheus >/dev/null && command -v promtool >/dev/null || need+=(prometheus)
command -v prometheus-alertmanager >/dev/null && command -v amtool >/dev/null || need+=(prometheus-alertmanager)
command -v chromium >/dev/null || need+=(chromium)
command -v go >/dev/null || [ -x /usr/local/go/bin/go ] || need+=(golang-go)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "missing system packages: ${need[*]} (run as root or install them with apt-get)" >&2
  exit 1
fi
echo "installing system packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
# Debian starts these as services on install; the tests start their own on free ports.
for svc in prometheus prometheus-alertmanager prometheus-node-exporter; do
  (command -v systemctl >/dev/null && systemctl stop "$svc" 2>/dev/null) || true
  (command -v service >/dev/null && service "$svc" stop 2>/dev/null) || true
done
