import { defineConfig } from 'vitest/config';

// Unit tests live beside their subjects. Tests that need a real Flink or Kafka run apart (npm run test:flink, test:kafka).
export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'renderer/**/*.test.ts', 'electron/**/*.test.ts'],
    // *.package.test.ts check the packaged app after a build: `npm run test:package`.
    exclude: ['**/*.flink.test.ts', '**/*.kafka.test.ts', '**/*.package.test.ts', '**/node_modules/**'],
    testTimeout: 20_000,
    // CSS is skipped in tests, except the theme's tokens, which theme.test.ts reads (`?raw`) to check contrast.
    css: { include: [/theme\.css/] },
    // beforeAll hooks run a local engine for tens of virtual seconds: on the shared 2-core machine that can take >10 s.
    hookTimeout: 60_000,
  },
});
