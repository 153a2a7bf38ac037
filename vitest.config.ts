import { defineConfig } from 'vitest/config';

// Unit tests live beside their subjects. Tests that need a real Flink run under e2e/flink (npm run test:flink).
export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'renderer/**/*.test.ts', 'electron/**/*.test.ts'],
    exclude: ['**/*.flink.test.ts', '**/node_modules/**'],
    testTimeout: 20_000,
    // beforeAll hooks run a local engine for tens of virtual seconds: on the shared 2-core machine that can take >10 s.
    hookTimeout: 60_000,
  },
});
