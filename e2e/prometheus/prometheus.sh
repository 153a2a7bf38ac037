#!/usr/bin/env bash
# Run a REAL Prometheus (Debian's package, 2.42) on a free 127.0.0.1 port, scraping the PrometheusReporter endpoints
# of the test Flink (`flink.sh up --prometheus`).
#
#   bash e2e/prometheus/prometheus.sh up     [--targets host:port,...] [--scrape-interval 5s] [--flink-version V]
#   bash e2e/prometheus/prometheus.sh down
#   bash e2e/prometheus/prometheus.sh status
#
# Without --targets, `up` scrapes the endpoints in .cache/flink/<V>/cluster.json (V: --flink-version, FLINK_VERSION
# or 2.3.0). Everything lives in <repo>/.cache/prometheus/ (config, data/, log, prometheus.json). `up` prints the
# URL on stdout; `down` stops only the pid `up` started. Tests start their own with prometheus-process.ts.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$SCRIPT_DIR/../.." && pwd -P)"

if [[ "${1:-}" == up && ! -x "${PROMETHEUS_BIN:-/usr/bin/prometheus}" ]]; then
  [[ "$(id -u)" == 0 ]] || { echo "prometheus.sh: ERROR: /usr/bin/prometheus is missing: apt-get install -y prometheus" >&2; exit 1; }
  echo "[prometheus.sh] installing Debian's prometheus (apt-get)" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >&2
  # where services may start, the package starts one on 0.0.0.0:9090: the tests run their own, on loopback
  if command -v systemctl >/dev/null && systemctl is-active --quiet prometheus 2>/dev/null; then
    systemctl disable --now prometheus >&2 || true
  fi
fi

exec "$ROOT/node_modules/.bin/tsx" "$SCRIPT_DIR/prometheus-cli.ts" "$@"
