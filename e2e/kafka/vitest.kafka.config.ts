import { defineConfig } from 'vitest/config';

/** Tests that need the real Kafka broker of `npm run kafka:up` (KAFKA_VERSION picks it, 4.4.0 by default). */
export default defineConfig({
  test: {
    include: ['e2e/kafka/**/*.kafka.test.ts', 'engine/**/*.kafka.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
