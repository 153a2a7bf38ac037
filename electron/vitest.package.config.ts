import { defineConfig } from 'vitest/config';

// `npm run test:package`: the packaged app's contents, after `npm run build` (the script builds first).
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['electron/**/*.package.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
