import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { EngineApi } from '../engine/contracts/engine-api';
import { createEngineClient, defaultTransport } from './api/engine-client';
import { App } from './app/App';
import { appShell } from './app/shell';
import { themeStore } from './app/theme';
import './app/styles.css';
import './app/theme.css';
import './app/overlays.css';

async function engineApi(): Promise<EngineApi> {
  // Development only (`vite` dev server, `?fake`): an in-browser fake engine. Dropped from production builds.
  if (import.meta.env.DEV && new URLSearchParams(window.location.search).has('fake')) {
    const { fakeTransport } = await import('./dev/fakeTransport');
    return createEngineClient(fakeTransport());
  }
  return createEngineClient(defaultTransport());
}

// Before the first render, so the page never paints in the wrong theme; the desktop shell follows the choice.
themeStore.start((preference) => void appShell().setTheme(preference).catch(() => undefined));

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

void engineApi().then((api) => {
  createRoot(container).render(
    <StrictMode>
      <App api={api} />
    </StrictMode>,
  );
});
