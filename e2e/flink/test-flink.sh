#!/usr/bin/env bash
# npm run test:flink: the client, CLI and e2e tests against real Flink clusters, one version after another
# (2 cores: never two clusters at once). Clusters already up are reused and left up; the ones started here are stopped.
set -euo pipefail
cd "$(dirname "$0")/../.."
versions=${FLINK_VERSIONS:-"2.3.0 2.2.1 1.20.5"}
e2e_version=${versions%% *}   # the browser tests run against the first (newest) version
oldest_version=${versions##* }
# The 2.x clusters run the adaptive scheduler (rescales in place), 1.x Flink's default (rescales through a savepoint).
scheduler_of() { case "$1" in 1.*) echo default ;; *) echo adaptive ;; esac; }
# Which suites run where (CI time; README "Tests"): every version runs the client, CLI and operations tests and the
# @every-version browser specs; the newest runs every browser spec; the disruptive one (a TaskManager kill, a
# restart of the whole cluster) runs on the newest and the oldest only: a middle version has the newest one's
# scheduler and JobManager failover. The newest also runs with Flink's PrometheusReporter (`--prometheus`) for the
# Prometheus suite (e2e/prometheus/*.prometheus.test.ts: it starts its own Prometheus scraping the cluster).
# Of the client, CLI and operations tests, the ones whose Flink side is the same REST the others already prove on that
# version run where they add something: the 20 kills of the console (its journal, on the savepoint calls every
# version's operations test covers) on the newest only; the diagnosis, the report and the rehearsal (analyses over the figures the
# truth test proves equal to Flink's on every version) not on the middle one. The State view on RocksDB (`state`:
# checkpoint sizes every version's truth and browser specs read alike, RocksDB's metric ids the same in 1.20's and
# 2.3's JobManager) on the newest only. Jars and savepoint disposal (`jars`: the same /jars and /savepoint-disposal
# handlers in 2.2 as in 2.3) not on the middle one. The processes' memory and GC over time (`process-history`: the
# JobManager's and TaskManagers' metric names the inspect test reads on every version) on the newest only.
vitest_excludes_of() {
  case "$1" in
    "$e2e_version") ;;
    "$oldest_version") echo "--exclude=e2e/flink/kill-console.flink.test.ts --exclude=e2e/flink/state.flink.test.ts --exclude=e2e/flink/process-history.flink.test.ts" ;;
    *) echo "--exclude=e2e/flink/kill-console.flink.test.ts --exclude=e2e/flink/diagnose.flink.test.ts --exclude=e2e/flink/report.flink.test.ts --exclude=e2e/flink/rehearse.flink.test.ts --exclude=e2e/flink/state.flink.test.ts --exclude=e2e/flink/jars.flink.test.ts --exclude=e2e/flink/process-history.flink.test.ts" ;;
  esac
}

npm run build --silent
for version in $versions; do
  started_here=false
  reporter=()
  if [ "$version" = "$e2e_version" ]; then reporter=(--prometheus); fi
  if ! bash e2e/flink/flink.sh status --version "$version" >/dev/null 2>&1; then
    bash e2e/flink/flink.sh up --version "$version" --scheduler "${FLINK_SCHEDULER:-$(scheduler_of "$version")}" "${reporter[@]}"
    started_here=true
  elif [ ${#reporter[@]} -gt 0 ] && ! grep -q '"prometheus"' ".cache/flink/$version/cluster.json"; then
    # A cluster already up without the reporter: restarted with it (it stays up afterwards, as it was).
    bash e2e/flink/flink.sh up --version "$version" --scheduler "${FLINK_SCHEDULER:-$(scheduler_of "$version")}" --prometheus
  fi
  status=0
  # shellcheck disable=SC2046 # the excludes are words
  FLINK_VERSION=$version npx vitest run --config e2e/flink/vitest.flink.config.ts $(vitest_excludes_of "$version") || status=$?
  if [ "$status" = 0 ] && [ "$version" = "$e2e_version" ]; then
    FLINK_VERSION=$version npx vitest run --config e2e/prometheus/vitest.prometheus.config.ts || status=$?
  fi
  if [ "$status" = 0 ] && [ "$version" = "$e2e_version" ]; then
    FLINK_VERSION=$version npx playwright test --config e2e/playwright.config.ts --project=flink || status=$?
  elif [ "$status" = 0 ]; then
    # Older versions: the browser specs that must hold on every version (real checkpoint statistics).
    FLINK_VERSION=$version npx playwright test --config e2e/playwright.config.ts --project=flink -g @every-version || status=$?
  fi
  # Last: kills a TaskManager and restarts the whole cluster (it stays up, with a new test job).
  if [ "$status" = 0 ] && { [ "$version" = "$e2e_version" ] || [ "$version" = "$oldest_version" ]; }; then
    FLINK_VERSION=$version npx playwright test --config e2e/playwright.config.ts --project=flink-disruptive || status=$?
  fi
  if [ "$started_here" = true ]; then bash e2e/flink/flink.sh down --version "$version"; fi
  if [ "$status" != 0 ]; then echo "test:flink failed against Flink $version" >&2; exit "$status"; fi
done
