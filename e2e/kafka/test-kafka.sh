#!/usr/bin/env bash
# npm run test:kafka: the Kafka tests against real brokers, one version after another (4.4.0, then 3.9.2: kafkajs
# 2.2.4 predates Kafka 4's removal of old protocol versions, KIP-896). Brokers already up are reused and left up; the
# ones started here are stopped. The browser test runs against the first version.
set -euo pipefail
cd "$(dirname "$0")/../.."
versions=${KAFKA_VERSIONS:-"4.4.0 3.9.2"}
e2e_version=${versions%% *}
started=$(date +%s)

npm run build --silent
for version in $versions; do
  started_here=false
  if ! bash e2e/kafka/kafka.sh status --version "$version" >/dev/null 2>&1; then
    bash e2e/kafka/kafka.sh up --version "$version" >/dev/null
    started_here=true
  fi
  status=0
  KAFKA_VERSION=$version npx vitest run --config e2e/kafka/vitest.kafka.config.ts || status=$?
  if [ "$status" = 0 ] && [ "$version" = "$e2e_version" ]; then
    KAFKA_VERSION=$version npx playwright test --config e2e/playwright.config.ts --project=kafka || status=$?
  fi
  if [ "$started_here" = true ]; then bash e2e/kafka/kafka.sh down --version "$version"; fi
  if [ "$status" != 0 ]; then echo "test:kafka failed against Kafka $version" >&2; exit "$status"; fi
done
echo "test:kafka: passed against Kafka ${versions} in $(( $(date +%s) - started )) s"
