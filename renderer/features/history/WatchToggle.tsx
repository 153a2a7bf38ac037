import { useEffect, useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JobWatch } from '../../../engine/contracts/history';
import { toErrorInfo } from '../../components/errors';
import { testIds } from '../../testIds';
import { useHistoryApi } from './api';

/**
 * "Watch this job": pinned, the console samples the job into its history until it is unpinned or the job ends,
 * whether or not a page shows it; unpinned, only while a page shows it (and a while after).
 */
export function WatchToggle({ clusterId, jobId, jobName, disabled }: { clusterId: string; jobId: string; jobName: string | null; disabled: boolean }): ReactNode {
  const historyApi = useHistoryApi();
  const [watch, setWatch] = useState<JobWatch | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);

  useEffect(() => {
    let live = true;
    historyApi.watches().then(
      (watches) => live && setWatch(watches.find((w) => w.clusterId === clusterId && w.jobId === jobId) ?? null),
      (e: unknown) => live && setError(toErrorInfo(e)),
    );
    return () => {
      live = false;
    };
  }, [historyApi, clusterId, jobId]);

  const pinned = watch?.pinned === true;
  const onToggle = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      setWatch(await historyApi.setPinned(clusterId, jobId, !pinned));
    } catch (e) {
      setError(toErrorInfo(e));
    } finally {
      setBusy(false);
    }
  };
  const title = pinned
    ? `Pinned: the console samples ${jobName ?? 'this job'} into its history until you unpin it or the job ends, whether or not a page shows it.`
    : 'Pin to keep sampling this job into the history when no page shows it (unpinned: only while a page shows it).';
  return (
    <span className="watch-toggle">
      <button
        type="button"
        className={`button button--small${pinned ? ' button--primary' : ''}`}
        aria-pressed={pinned}
        disabled={disabled || busy}
        title={title}
        data-testid={testIds.history.watchToggle}
        onClick={() => void onToggle()}
      >
        {pinned ? '★ Watching this job' : '☆ Watch this job'}
      </button>
      {error ? (
        <span className="watch-toggle__error small" role="alert">
          {error.message}
        </span>
      ) : null}
    </span>
  );
}
