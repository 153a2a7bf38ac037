import { useEffect, useRef, useState } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JournalEntry, OperationRequest } from '../../../engine/contracts/operations';
import { toErrorInfo } from '../../components/errors';
import { isOpen, newTriggerId } from './operations';
import { useOperationsApi } from './api';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A request of any kind, without the trigger id this hook adds. */
export type RequestWithoutTrigger = DistributiveOmit<OperationRequest, 'triggerId'>;

/**
 * One intent to operate: its trigger id is made when the dialog opens, so a double click, a second click while the
 * call runs, or a retry after an error all send the same id, and the engine starts nothing twice.
 */
export function useStartOperation(): {
  start(request: RequestWithoutTrigger): Promise<JournalEntry | null>;
  starting: boolean;
  error: ErrorInfo | null;
} {
  const operationsApi = useOperationsApi();
  const [triggerId] = useState(() => newTriggerId());
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  // A ref, not state: a second click in the same frame must see the first one at once.
  const inFlight = useRef(false);

  const start = async (request: RequestWithoutTrigger): Promise<JournalEntry | null> => {
    if (inFlight.current) return null;
    inFlight.current = true;
    setStarting(true);
    setError(null);
    try {
      return await operationsApi.start({ ...request, triggerId } as OperationRequest);
    } catch (e) {
      setError(toErrorInfo(e));
      return null;
    } finally {
      inFlight.current = false;
      setStarting(false);
    }
  };
  return { start, starting, error };
}

/** How soon to look again at an open entry: quickly at first (most savepoints take about a second), then each second. */
export const FOLLOW_DELAYS_MS = [250, 250, 500, 1000];

/** Follows a journal entry while it is open, then stops. */
export function useJournalEntry(initial: JournalEntry | null): JournalEntry | null {
  const operationsApi = useOperationsApi();
  const [entry, setEntry] = useState(initial);
  useEffect(() => setEntry(initial), [initial]);
  const id = entry?.id;
  const open = entry ? isOpen(entry) : false;
  useEffect(() => {
    if (!id || !open) return;
    let live = true;
    let timer: number | undefined;
    const follow = (n: number) => {
      timer = window.setTimeout(() => {
        operationsApi.journalEntry(id).then(
          (next) => {
            if (!live) return;
            if (next) setEntry(next);
            if (!next || isOpen(next)) follow(n + 1);
          },
          () => live && follow(n + 1),
        );
      }, FOLLOW_DELAYS_MS[Math.min(n, FOLLOW_DELAYS_MS.length - 1)]);
    };
    follow(0);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [operationsApi, id, open]);
  return entry;
}
