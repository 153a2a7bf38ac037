import { defineConfig } from 'vitest/config';

/** Tests that need the real Flink of `npm run flink:up` (FLINK_VERSION picks the cluster, 2.3.0 by default). */
export default defineConfig({
  test: {
    include: ['e2e/flink/**/*.flink.test.ts', 'engine/**/*.flink.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
