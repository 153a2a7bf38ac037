import { useSyncExternalStore } from 'react';
import { THEME_PREFERENCES, type ThemePreference } from '../../engine/contracts/shell-api';

/**
 * Light or dark: the system's choice (`prefers-color-scheme`, which Electron feeds from `nativeTheme`)
 * unless the user picked one, which is remembered. The page shows it as <html data-theme="...">; the
 * colours are in theme.css.
 */
export type Theme = 'light' | 'dark';

const PREFERENCE_KEY = 'flink-ops-theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): Theme {
  if (preference === 'light' || preference === 'dark') return preference;
  return systemPrefersDark ? 'dark' : 'light';
}

export function readPreference(storage: Pick<Storage, 'getItem'> | undefined): ThemePreference {
  try {
    const stored = storage?.getItem(PREFERENCE_KEY);
    return (THEME_PREFERENCES as readonly string[]).includes(stored ?? '') ? (stored as ThemePreference) : 'system';
  } catch {
    return 'system';
  }
}

interface Snapshot {
  preference: ThemePreference;
  resolved: Theme;
}

const media = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
let snapshot: Snapshot = snapshotFor(readPreference(globalThis.localStorage));
const listeners = new Set<() => void>();
/** The desktop shell follows the choice (native menus, dialogs); set by main.tsx. */
let onPreferenceChange: ((preference: ThemePreference) => void) | null = null;

function snapshotFor(preference: ThemePreference): Snapshot {
  // Without matchMedia (tests), dark: the console's first theme.
  return { preference, resolved: resolveTheme(preference, media?.matches ?? true) };
}

function publish(next: Snapshot): void {
  snapshot = next;
  applyToDocument(next.resolved);
  for (const listener of listeners) listener();
}

function applyToDocument(theme: Theme): void {
  if (typeof document === 'undefined') return;
  document.documentElement.dataset.theme = theme;
}

media?.addEventListener('change', () => publish(snapshotFor(snapshot.preference)));

export const themeStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get(): Snapshot {
    return snapshot;
  },
  /** Applies the remembered theme before the first render, and tells the shell about it. */
  start(shellFollows: (preference: ThemePreference) => void): void {
    onPreferenceChange = shellFollows;
    applyToDocument(snapshot.resolved);
    shellFollows(snapshot.preference);
  },
  setPreference(preference: ThemePreference): void {
    try {
      if (preference === 'system') globalThis.localStorage?.removeItem(PREFERENCE_KEY);
      else globalThis.localStorage?.setItem(PREFERENCE_KEY, preference);
    } catch {
      // Storage may be unavailable (private mode): the choice then lasts until reload.
    }
    publish(snapshotFor(preference));
    onPreferenceChange?.(preference);
  },
};

export function useTheme(): Snapshot & { setPreference(preference: ThemePreference): void } {
  const s = useSyncExternalStore(themeStore.subscribe, themeStore.get, themeStore.get);
  return { ...s, setPreference: themeStore.setPreference };
}
