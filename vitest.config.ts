import { defineConfig } from 'vitest/config';

// Unit tests live beside their subjects. Tests that need a real Flink or Kafka run apart (npm run test:flink, test:kafka).
export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'renderer/**/*.test.ts', 'electron/**/*.test.ts'],
    exclude: ['**/*.flink.test.ts', '**/*.kafka.test.ts', '**/node_modules/**'],
    testTimeout: 20_000,
  },
});
