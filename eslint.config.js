import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layering rule (after VS Code's code-layering): the path tells where code runs.
 * engine/ is plain Node and never imports the UI or Electron; renderer/ reaches the engine only through its contract.
 */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

const ENGINE_LAYERING = [
  { group: ['electron', 'electron/*', 'electron-store'], message: 'engine/ is headless: Electron stays in electron/.' },
  { group: ['react', 'react-dom', 'react/*', 'recharts', '@xyflow/*'], message: 'engine/ is headless: UI stays in renderer/.' },
  { group: ['**/renderer/**', '**/electron/**'], message: 'engine/ must not depend on the UI or the shell.' },
];

const RENDERER_LAYERING = [
  { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto'], message: 'renderer/ runs in a sandboxed page: no Node built-ins.' },
  { group: ['electron', 'electron/*', 'electron-store'], message: 'renderer/ talks to Electron only through the preload bridge.' },
  { regex: '^(\\.\\./)+engine/(?!contracts/)', message: 'renderer/ may import only engine/contracts (the EngineApi).' },
  { group: ['axios', 'kafkajs', 'conf'], message: 'renderer/ reaches clusters only through the engine.' },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'renderer/dist/', 'electron/dist/', '.cache/', 'test-results/', 'playwright-report/', 'engine/flink-rest/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', fetch: 'readonly', window: 'readonly', document: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['engine/**'],
    rules: restrict(ENGINE_LAYERING),
  },
  {
    // The contract is what the renderer and the preload import: self-contained, plain data and zod.
    files: ['engine/contracts/**'],
    rules: restrict([...ENGINE_LAYERING, { regex: '^\\.\\./', message: 'engine/contracts/ imports only its own files (and zod): the renderer and the preload import it.' }, { group: ['node:*'], message: 'engine/contracts/ runs in the page too: no Node built-ins.' }]),
  },
  {
    files: ['renderer/**'],
    rules: restrict(RENDERER_LAYERING),
  },
  {
    // A feature reaches its service through its own api.ts (features/<service>/api.ts), never the engine's record.
    files: ['renderer/features/**'],
    ignores: ['renderer/features/*/api.ts'],
    rules: restrict([...RENDERER_LAYERING, { group: ['**/app/engine'], importNames: ['useService'], message: 'Reach a service through its feature\'s api.ts (e.g. useJobsApi()).' }]),
  },
  {
    files: ['electron/**'],
    rules: restrict([
      { group: ['react', 'react-dom', '**/renderer/**'], message: 'electron/ is a thin shell: no UI code.' },
    ]),
  },
);
