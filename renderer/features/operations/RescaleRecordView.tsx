import type { ReactNode } from 'react';
import type { JournalEntry } from '../../../engine/contracts/operations';
import { testIds } from '../../testIds';

/**
 * Where an in-place rescale's outcome came from: Flink's own record (its UUID, state and reason, each vertex's
 * parallelism before and after), or the job's parallelism as the console watched it (no rescale history there).
 */
export function RescaleRecordView({ entry }: { entry: JournalEntry }): ReactNode {
  if (!entry.outcomeSource) return null;
  const record = entry.rescaleRecord;
  if (entry.outcomeSource === 'observed' || !record) {
    return (
      <p className="muted small" data-testid={testIds.operations.outcomeSource} data-source={entry.outcomeSource}>
        {entry.outcomeSource === 'observed'
          ? "Outcome observed from the job's parallelism: this cluster keeps no rescale history (Flink 2.3+ with web.adaptive-scheduler.rescale-history.size > 0 does)."
          : "Outcome from Flink's rescale history; no record of this rescale was found."}
      </p>
    );
  }
  return (
    <div className="small" data-testid={testIds.operations.outcomeSource} data-source="rescale-history">
      <p>
        Outcome from Flink&apos;s rescale history: rescale <code className="mono">{record.rescaleUuid}</code>{' '}
        {record.terminalState ?? 'in progress'} ({record.words}).
      </p>
      {record.vertices.length > 0 ? (
        <table className="table table--compact">
          <thead>
            <tr>
              <th>Vertex</th>
              <th>Parallelism before</th>
              <th>After</th>
              <th>Wanted</th>
            </tr>
          </thead>
          <tbody>
            {record.vertices.map((v) => (
              <tr key={v.vertexId}>
                <td>{v.vertexName ?? v.vertexId}</td>
                <td>{v.before ?? '—'}</td>
                <td>{v.after ?? '—'}</td>
                <td>{v.desired ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
