import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ErrorInfo } from '../../engine/contracts/errors';
import { Poller, browserPollerEnv, initialPollState, type PollState } from './poller';

export interface UsePollingOptions {
  /** Hold the timer (a manual refresh still works). */
  paused: boolean;
  /** A change of key starts over with no data (another cluster, job or vertex). */
  key: string;
  /** Bumped to ask for one fetch now. */
  refreshSignal?: number;
  stopWhen?: (error: ErrorInfo) => boolean;
}

export interface Polled<T> extends PollState<T> {
  refresh(): void;
}

/**
 * One fetcher on an interval, for as long as the component is mounted: no overlapping calls,
 * nothing while the tab is hidden, stops on unmount. Every page uses this.
 */
export function usePolling<T>(fetcher: () => Promise<T>, intervalMs: number | null, options: UsePollingOptions): Polled<T> {
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const stopWhenRef = useRef(options.stopWhen);
  stopWhenRef.current = options.stopWhen;
  const [state, setState] = useState<{ key: string; value: PollState<T> }>(() => ({
    key: options.key,
    value: initialPollState<T>(),
  }));
  const pollerRef = useRef<Poller<T> | null>(null);
  const latest = useRef({ intervalMs, paused: options.paused });
  latest.current = { intervalMs, paused: options.paused };

  useEffect(() => {
    const key = options.key;
    const poller = new Poller<T>(
      () => fetcherRef.current(),
      {
        intervalMs: latest.current.intervalMs,
        paused: latest.current.paused,
        stopWhen: (e) => stopWhenRef.current?.(e) ?? false,
      },
      browserPollerEnv(),
      // A refresh's re-render is a transition: React renders it in slices of a few ms, yielding to input and frames
      // between them, instead of in one task (a big job's page renders several panels per refresh).
      (value) => startTransition(() => setState({ key, value })),
    );
    pollerRef.current = poller;
    setState({ key, value: initialPollState<T>() });
    poller.start();
    return () => {
      poller.stop();
      pollerRef.current = null;
    };
  }, [options.key]);

  useEffect(() => {
    pollerRef.current?.update({
      intervalMs,
      paused: options.paused,
      stopWhen: (e) => stopWhenRef.current?.(e) ?? false,
    });
  }, [intervalMs, options.paused]);

  const firstSignal = useRef(options.refreshSignal);
  useEffect(() => {
    if (options.refreshSignal === firstSignal.current) return;
    pollerRef.current?.refresh();
  }, [options.refreshSignal]);

  const refresh = useCallback(() => pollerRef.current?.refresh(), []);
  // Until the effect for a new key has run, show nothing of the previous key's data.
  const current = state.key === options.key ? state.value : null;
  // One object while the poll's state is the same: a memoized component given the poll skips a parent's re-render.
  return useMemo(() => ({ ...(current ?? { ...initialPollState<T>(), loading: true }), refresh }), [current, refresh]);
}
