/**
 * The installers (`npm run dist`, electron-builder): Linux AppImage and deb, macOS dmg, Windows nsis.
 * The app ships only built files: the renderer (renderer/dist), main and preload, and the local engine
 * bundled as one file (electron/dist/engine), plus the local engine's scenarios. No TypeScript, no source maps,
 * no tests; of node_modules only LMDB's runtime (the history store's native N-API module cannot be bundled: its
 * binaries are unpacked beside the asar). electron-builder.config.test.ts checks it.
 * Loaded by electron-builder through jiti, and by the test through vitest: keep it plain data.
 */
import type { Configuration } from 'electron-builder';
import { DEEP_LINK_SCHEME } from '../engine/contracts/deep-link.ts';
import { INCIDENT_BUNDLE } from '../engine/contracts/incident-bundle.ts';
import { APP_ID, PRODUCT_NAME } from './common/app-identity.ts';

/**
 * LMDB and what it loads at run time (its platform binaries are optional packages: npm installs the one of the
 * machine that builds the installer). Kept short on purpose: every other dependency is bundled.
 */
export const LMDB_RUNTIME = [
  'lmdb',
  '@lmdb',
  '@harperfast',
  'msgpackr',
  'ordered-binary',
  'weak-lru-cache',
  'node-gyp-build-optional-packages',
  'detect-libc',
];

/** What the installed app runs: the bundle build-electron.mjs writes. */
export const APP_MAIN = 'electron/dist/main.cjs';

const config: Configuration = {
  appId: APP_ID,
  productName: PRODUCT_NAME,
  executableName: 'flink-ops-console',
  copyright: 'Apache License 2.0',
  artifactName: 'flink-ops-console-${version}-${os}-${arch}.${ext}',
  directories: { output: '.cache/dist', buildResources: 'resources/icons' },
  // package.json's `main` is not set (the CLI is the package's entry); the app's is the bundle.
  extraMetadata: { main: APP_MAIN },
  files: [
    'package.json',
    'README.md',
    'electron/dist/**/*',
    'renderer/dist/**/*',
    'resources/scenarios/*.yaml',
    'resources/icons/png/512x512.png',
    '!**/node_modules/**/*',
    ...LMDB_RUNTIME.map((name) => `node_modules/${name}/**/*`),
    // Later patterns win: these apply to LMDB's files too.
    '!**/*.map',
    '!**/*.{ts,tsx,mts,cts}',
    '!node_modules/**/{src,dependencies,test,tests,benchmark,docs,*.md,*.gyp,test.js}',
  ],
  asar: true,
  asarUnpack: ['node_modules/@lmdb/**/*'],
  // LMDB ships N-API binaries (one per OS and CPU, ABI-independent): nothing to rebuild against Electron's ABI.
  npmRebuild: false,
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  protocols: [{ name: `${PRODUCT_NAME} link`, schemes: [DEEP_LINK_SCHEME] }],
  fileAssociations: [
    {
      ext: INCIDENT_BUNDLE.extension,
      name: INCIDENT_BUNDLE.description,
      description: INCIDENT_BUNDLE.description,
      mimeType: INCIDENT_BUNDLE.mimeType,
      role: 'Viewer',
    },
  ],
  electronFuses: {
    // The local engine runs as Electron-as-Node (ELECTRON_RUN_AS_NODE), so this one stays on.
    runAsNode: true,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    // The page is Vite's ES modules loaded from file://, which needs file:'s extra privileges; serving it
    // from a custom protocol instead would let this go.
    grantFileProtocolExtraPrivileges: true,
  },
  linux: {
    target: ['AppImage', 'deb'],
    icon: 'resources/icons/png',
    category: 'Development',
    synopsis: 'Operations console for Apache Flink',
    maintainer: 'Flink Ops Console <flink-ops-console@users.noreply.github.com>',
  },
  mac: {
    target: ['dmg'],
    icon: 'resources/icons/icon.icns',
    category: 'public.app-category.developer-tools',
    hardenedRuntime: true,
  },
  win: {
    target: ['nsis'],
    icon: 'resources/icons/icon.ico',
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    createDesktopShortcut: true,
  },
};

export default config;
