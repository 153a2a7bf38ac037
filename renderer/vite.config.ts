import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import packageJson from '../package.json' with { type: 'json' };

// The config's own folder (Vite provides import.meta.dirname to config files); no Node import needed.
const root = import.meta.dirname;

/**
 * The dev server injects inline scripts (React refresh preamble) that the production CSP forbids.
 * Only while serving, allow them; the built index.html keeps the strict policy unchanged.
 */
function relaxCspForDevServer(): Plugin {
  return {
    name: 'flink-ops:relax-csp-in-dev',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'");
    },
  };
}

/**
 * `build-info.json` beside the bundle: the app's version and the time of this build. The local engine reports them
 * as its `flink-revision` (GET /config), as a Flink build reports its commit and date.
 */
function buildInfo(): Plugin {
  return {
    name: 'flink-ops:build-info',
    apply: 'build',
    generateBundle() {
      const info = { version: packageJson.version, builtAt: new Date().toISOString() };
      this.emitFile({ type: 'asset', fileName: 'build-info.json', source: `${JSON.stringify(info)}\n` });
    },
  };
}

export default defineConfig({
  root,
  // Relative asset URLs: the same bundle loads from file:// (Electron) and from http (web mode).
  base: './',
  plugins: [react(), relaxCspForDevServer(), buildInfo()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // elkjs's bundled build (~1.5 MB minified) is its own lazily loaded chunk, fetched on the first job graph only.
    chunkSizeWarningLimit: 1700,
  },
  server: { host: '127.0.0.1', strictPort: false },
});
