import { useEffect, type ReactNode } from 'react';
import type { ClusterOverview } from '../../../engine/contracts/clusters';
import { refreshSettings, type ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { useClustersApi } from '../clusters/api';

/** Version, TaskManagers, slots and jobs by state; teaches the page the cluster's refresh floor. */
export function OverviewPanel({ clusterId, refresh }: { clusterId: string; refresh: ClusterRefresh }): ReactNode {
  const clustersApi = useClustersApi();
  const poll = usePolling<ClusterOverview>(() => clustersApi.overview(clusterId), refresh.intervalMs, {
    key: clusterId,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const overview = poll.data;

  useEffect(() => {
    if (overview) refreshSettings.learnMin(clusterId, overview.minRefreshIntervalMs);
  }, [clusterId, overview]);

  return (
    <Panel title="Overview" poll={poll} testId={testIds.overview.panel}>
      <PollErrorBanner poll={poll} context="Loading the cluster overview failed" />
      {overview ? (
        <div className={`cards${poll.stale ? ' is-stale' : ''}`}>
          <Card label="Flink version">
            <span className="card__value" data-testid={testIds.overview.flinkVersion}>
              {overview.flinkVersion}
            </span>
          </Card>
          <Card label="TaskManagers">
            <span className="card__value" data-testid={testIds.overview.taskManagers}>
              {overview.taskManagers}
            </span>
          </Card>
          <Card label="Task slots">
            <span className="card__value" data-testid={testIds.overview.slots}>
              <span title="available">{overview.slotsAvailable}</span>
              <span className="card__unit"> available of </span>
              <span title="total">{overview.slotsTotal}</span>
            </span>
            <Meter
              value={overview.slotsTotal - overview.slotsAvailable}
              max={overview.slotsTotal}
              label={`${overview.slotsTotal - overview.slotsAvailable} of ${overview.slotsTotal} slots in use`}
            />
          </Card>
          <Card label="Jobs">
            <dl className="job-states" data-testid={testIds.overview.jobs}>
              {(
                [
                  ['running', 'Running'],
                  ['finished', 'Finished'],
                  ['cancelled', 'Cancelled'],
                  ['failed', 'Failed'],
                ] as const
              ).map(([key, label]) => (
                <div key={key} className={`job-state job-state--${key}`}>
                  <dt>{label}</dt>
                  <dd data-testid={testIds.overview.jobCount(key)}>{overview.jobs[key]}</dd>
                </div>
              ))}
            </dl>
          </Card>
        </div>
      ) : !poll.error ? (
        <div className="cards cards--loading" aria-busy="true">
          {['Flink version', 'TaskManagers', 'Task slots', 'Jobs'].map((label) => (
            <Card key={label} label={label}>
              <span className="card__value skeleton">…</span>
            </Card>
          ))}
        </div>
      ) : null}
    </Panel>
  );
}

function Card({ label, children }: { label: string; children: ReactNode }): ReactNode {
  return (
    <div className="card">
      <div className="card__label">{label}</div>
      {children}
    </div>
  );
}

function Meter({ value, max, label }: { value: number; max: number; label: string }): ReactNode {
  const share = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  return (
    <div className="meter" role="meter" aria-valuemin={0} aria-valuemax={max} aria-valuenow={value} aria-label={label} title={label}>
      <div className="meter__fill" style={{ width: `${share * 100}%` }} />
    </div>
  );
}
