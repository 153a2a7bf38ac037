import type { ReactNode } from 'react';
import { testIds } from '../testIds';
import { formatAgo } from './format';
import { useNow } from './useNow';

/** "updated 12s ago", a spinner dot while loading, and a stale mark when the last refresh failed. */
export function Freshness({
  updatedAt,
  loading,
  stale,
}: {
  updatedAt: number | null;
  loading: boolean;
  stale: boolean;
}): ReactNode {
  const now = useNow();
  return (
    <span className="freshness">
      {loading ? <span className="freshness__dot" aria-label="refreshing" /> : null}
      <span data-testid={testIds.refresh.updated}>
        {updatedAt == null ? (loading ? 'loading…' : 'not loaded') : `updated ${formatAgo(updatedAt, now)}`}
      </span>
      {stale ? (
        <span className="stale-mark" data-testid={testIds.refresh.stale} title="The last refresh failed: this data may be out of date.">
          stale
        </span>
      ) : null}
    </span>
  );
}
