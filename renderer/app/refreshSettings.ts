import { useMemo, useSyncExternalStore } from 'react';

/**
 * How often pages refresh: one preference for the whole app (kept across reloads), a pause switch,
 * and each cluster's floor (`minRefreshIntervalMs` from its overview). Polling is never faster than
 * the floor; before the floor is known, a conservative fallback applies.
 */
export const DEFAULT_PREFERENCE_MS = 15_000;
/** Used while a cluster's minRefreshIntervalMs is not known yet. */
export const FALLBACK_MIN_MS = 30_000;
const PRESETS_MS = [15_000, 30_000, 60_000, 120_000];

/** The interval choices for a cluster: its floor first, then the presets above it. */
export function refreshChoices(minMs: number | null): number[] {
  const floor = minMs ?? FALLBACK_MIN_MS;
  const choices = new Set<number>([floor, ...PRESETS_MS.filter((p) => p > floor)]);
  return [...choices].sort((a, b) => a - b);
}

/** What the pollers use: the preference, raised to the floor. */
export function effectiveInterval(preferenceMs: number, minMs: number | null): number {
  const floor = minMs ?? FALLBACK_MIN_MS;
  const preference = Number.isFinite(preferenceMs) && preferenceMs > 0 ? preferenceMs : DEFAULT_PREFERENCE_MS;
  return Math.max(preference, floor);
}

interface Snapshot {
  preferenceMs: number;
  paused: boolean;
  minByCluster: Readonly<Record<string, number>>;
  /** Bumped by "Refresh now": every poller on the page fetches once. */
  refreshSignal: number;
}

const PREFERENCE_KEY = 'flink-ops-refresh-ms';
const MIN_KEY = 'flink-ops-min-refresh';

function readNumber(storage: Storage | undefined, key: string): number | null {
  try {
    const raw = storage?.getItem(key);
    const n = raw == null ? Number.NaN : Number(raw);
    return Number.isFinite(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

function readMins(): Record<string, number> {
  try {
    const raw = globalThis.sessionStorage?.getItem(MIN_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'number' && v > 0)) as Record<string, number>;
  } catch {
    return {};
  }
}

let snapshot: Snapshot = {
  preferenceMs: readNumber(globalThis.localStorage, PREFERENCE_KEY) ?? DEFAULT_PREFERENCE_MS,
  paused: false,
  minByCluster: readMins(),
  refreshSignal: 0,
};
const listeners = new Set<() => void>();

function set(patch: Partial<Snapshot>): void {
  snapshot = { ...snapshot, ...patch };
  for (const listener of listeners) listener();
}

export const refreshSettings = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get(): Snapshot {
    return snapshot;
  },
  setPreference(ms: number): void {
    try {
      globalThis.localStorage?.setItem(PREFERENCE_KEY, String(ms));
    } catch {
      // Storage may be unavailable (private mode): the choice then lasts until reload.
    }
    set({ preferenceMs: ms });
  },
  setPaused(paused: boolean): void {
    set({ paused });
  },
  learnMin(clusterId: string, minMs: number): void {
    if (!(minMs > 0) || snapshot.minByCluster[clusterId] === minMs) return;
    const minByCluster = { ...snapshot.minByCluster, [clusterId]: minMs };
    try {
      globalThis.sessionStorage?.setItem(MIN_KEY, JSON.stringify(minByCluster));
    } catch {
      // see above
    }
    set({ minByCluster });
  },
  refreshNow(): void {
    set({ refreshSignal: snapshot.refreshSignal + 1 });
  },
};

export interface ClusterRefresh {
  /** What pollers use: never below the cluster's floor. */
  intervalMs: number;
  minMs: number | null;
  preferenceMs: number;
  paused: boolean;
  refreshSignal: number;
}

export function useClusterRefresh(clusterId: string): ClusterRefresh {
  const s = useSyncExternalStore(refreshSettings.subscribe, refreshSettings.get, refreshSettings.get);
  const minMs = s.minByCluster[clusterId] ?? null;
  const intervalMs = effectiveInterval(s.preferenceMs, minMs);
  // The same object while nothing changed: memoized panels that take it do not re-render for a new copy.
  return useMemo(
    () => ({ intervalMs, minMs, preferenceMs: s.preferenceMs, paused: s.paused, refreshSignal: s.refreshSignal }),
    [intervalMs, minMs, s.preferenceMs, s.paused, s.refreshSignal],
  );
}
