import { defineConfig } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../engine/bench/chromium.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Three projects: `web` needs nothing but the built console; `flink` needs the real cluster that
 * `npm run flink:up` starts, `kafka` the broker of `npm run kafka:up` (their specs fail with that instruction when it
 * is missing).
 * One worker by default: the flink and kafka specs share one cluster or broker. The web specs each start their own
 * console (and engine) and mostly wait on a scenario's clock, so `npm test` runs them on two workers (7.6 min instead
 * of 12.8 on the 2-core machine).
 */
export default defineConfig({
  outputDir: path.join(ROOT, 'test-results/playwright'),
  forbidOnly: true,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { outputFolder: path.join(ROOT, 'playwright-report'), open: 'never' }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'web', testDir: path.join(ROOT, 'e2e/specs/web') },
    { name: 'flink', testDir: path.join(ROOT, 'e2e/specs/flink'), timeout: 180_000 },
    { name: 'kafka', testDir: path.join(ROOT, 'e2e/specs/kafka'), timeout: 180_000 },
    // Kills a TaskManager and stops and starts the whole real cluster: run last (`npm run test:flink` does).
    { name: 'flink-disruptive', testDir: path.join(ROOT, 'e2e/specs/flink-disruptive'), timeout: 600_000 },
  ],
});
