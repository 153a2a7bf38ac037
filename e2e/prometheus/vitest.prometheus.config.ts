import { defineConfig } from 'vitest/config';

/**
 * Tests that need the real Flink of `flink.sh up --prometheus` (its PrometheusReporter endpoints in cluster.json) and
 * Debian's Prometheus, which they start themselves. FLINK_VERSION picks the cluster, 2.3.0 by default.
 */
export default defineConfig({
  test: {
    include: ['e2e/prometheus/**/*.prometheus.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
