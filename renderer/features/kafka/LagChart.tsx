import type { ReactNode } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LagPoint } from '../../../engine/contracts/kafka';
import { formatCount, formatTimestamp } from '../../components/format';
import { testIds } from '../../testIds';

/** The group's total lag over time (committed offsets) beside the job's own pendingRecords, from the lag history. */
export function LagChart({ points }: { points: LagPoint[] }): ReactNode {
  const showPending = points.some((p) => p.pendingRecords !== null);
  return (
    <div className="lag-chart" data-testid={testIds.kafka.lagChart} data-points={points.length}>
      {points.length < 2 ? (
        <p className="muted small">The trend appears after the next refreshes ({points.length} point so far).</p>
      ) : (
        <ResponsiveContainer width="100%" height={200}>
          <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border, #ddd)" />
            <XAxis dataKey="at" type="number" domain={['dataMin', 'dataMax']} scale="time" tickFormatter={(t: number) => formatTimestamp(t).slice(-8)} minTickGap={40} />
            <YAxis tickFormatter={(v: number) => formatCount(v)} width={64} />
            <Tooltip labelFormatter={(t) => formatTimestamp(Number(t))} formatter={(v) => formatCount(Number(v))} />
            <Legend />
            <Line type="stepAfter" dataKey="totalLag" name="committed lag" stroke="#c2410c" dot={false} isAnimationActive={false} />
            {showPending ? <Line type="monotone" dataKey="pendingRecords" name="pendingRecords (job)" stroke="#2563eb" dot={false} isAnimationActive={false} connectNulls /> : null}
          </LineChart>
        </ResponsiveContainer>
      )}
    </div>
  );
}
