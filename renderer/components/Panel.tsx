import type { ReactNode } from 'react';
import type { PollState } from './poller';
import { Freshness } from './Freshness';

/** A titled panel with its own freshness line: every polled panel looks the same. */
export function Panel({
  title,
  poll,
  actions,
  children,
  testId,
  className,
}: {
  title: ReactNode;
  poll?: Pick<PollState<unknown>, 'updatedAt' | 'loading' | 'stale'>;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
  className?: string;
}): ReactNode {
  return (
    <section className={`panel${className ? ` ${className}` : ''}`} data-testid={testId}>
      <header className="panel__header">
        <h2 className="panel__title">{title}</h2>
        <div className="panel__meta">
          {poll ? <Freshness updatedAt={poll.updatedAt} loading={poll.loading} stale={poll.stale} /> : null}
          {actions}
        </div>
      </header>
      {children}
    </section>
  );
}
