import { useEffect, useState, type ReactNode } from 'react';
import type { ConsumerLagView as Lag, LagPoint } from '../../../engine/contracts/kafka';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { formatCount, formatInterval } from '../../components/format';
import { Freshness } from '../../components/Freshness';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { LagChart } from './LagChart';
import { useKafkaApi } from './api';

/** How far back the trend chart reads the lag history. */
const TREND_WINDOW_MS = 30 * 60_000;

/**
 * A consumer group's lag, refreshed with the page: per partition the committed offset, the log-end offset and the lag
 * ("no committed offset" where the group never committed), the total beside the job's own pendingRecords, and the trend.
 */
export function ConsumerLagView({ clusterId, jobId, groupId, topics, checkpointIntervalMs, refresh }: { clusterId: string; jobId: string; groupId: string; topics: string[]; checkpointIntervalMs: number | null; refresh: ClusterRefresh }): ReactNode {
  const kafkaApi = useKafkaApi();
  const key = `${clusterId}/${groupId}/${topics.join(',')}`;
  const poll = usePolling<Lag>(() => kafkaApi.consumerLag(clusterId, { groupId, ...(topics.length > 0 ? { topics } : {}), jobId }), refresh.intervalMs, {
    key,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const [history, setHistory] = useState<LagPoint[]>([]);
  const lag = poll.data;
  useEffect(() => {
    if (!poll.updatedAt) return;
    let live = true;
    kafkaApi.lagHistory(clusterId, groupId, Date.now() - TREND_WINDOW_MS).then((points) => live && setHistory(points), () => {});
    return () => {
      live = false;
    };
  }, [kafkaApi, clusterId, groupId, poll.updatedAt]);

  return (
    <div className="kafka-lag" data-testid={testIds.kafka.lag}>
      <div className="kafka-lag__head">
        <h3>
          Consumer lag of <code className="mono">{groupId}</code>
        </h3>
        <Freshness updatedAt={poll.updatedAt} loading={poll.loading} stale={poll.stale} />
      </div>
      <PollErrorBanner poll={poll} context="Reading the consumer lag failed" />
      {lag ? (
        <>
          <div className="cards">
            <div className="card">
              <div className="card__label">Total lag (committed)</div>
              <div className="card__value" data-testid={testIds.kafka.totalLag}>
                {formatCount(lag.totalLag)}
              </div>
            </div>
            <div className="card">
              <div className="card__label">pendingRecords (job)</div>
              <div className="card__value" data-testid={testIds.kafka.pendingRecords}>
                {lag.pendingRecords === null ? 'not exposed' : formatCount(lag.pendingRecords)}
              </div>
            </div>
            <div className="card">
              <div className="card__label">Group</div>
              <div className="card__value card__value--small">
                {lag.groupState} · {lag.members} member{lag.members === 1 ? '' : 's'}
              </div>
            </div>
          </div>
          <p className="hint">
            Flink commits the source&apos;s offsets when a checkpoint completes, so the committed lag grows between checkpoints and drops at each one: a saw-tooth with the checkpoint
            interval{checkpointIntervalMs ? ` (${formatInterval(checkpointIntervalMs)} for this job)` : ''}. The job&apos;s pendingRecords is its live backlog.
            {lag.partitionsWithoutCommit > 0 ? ` ${lag.partitionsWithoutCommit} partition(s) have no committed offset: they are not in the total.` : ''}
          </p>
          <LagChart points={history} />
          <div className="table-wrap">
            <table className="table" data-testid={testIds.kafka.lagTable}>
              <thead>
                <tr>
                  <th>Topic</th>
                  <th className="num">Partition</th>
                  <th className="num">Committed offset</th>
                  <th className="num">Log-end offset</th>
                  <th className="num">Lag</th>
                </tr>
              </thead>
              <tbody>
                {lag.partitions.map((p) => (
                  <tr key={`${p.topic}/${p.partition}`} data-testid={testIds.kafka.lagRow(p.topic, p.partition)}>
                    <td className="mono">{p.topic}</td>
                    <td className="num">{p.partition}</td>
                    <td className="num">{p.committedOffset === null ? <span className="muted">no committed offset</span> : p.committedOffset}</td>
                    <td className="num">{p.logEndOffset}</td>
                    <td className="num">{p.lag === null ? <span className="muted">—</span> : p.lag}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : !poll.error ? (
        <p className="muted">Reading the lag…</p>
      ) : null}
    </div>
  );
}
