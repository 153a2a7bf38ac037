import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { RescalePlan, VertexRescalePlan } from '../../../engine/contracts/rescale';
import { formatRate, formatTimestamp } from '../../components/format';
import { testIds } from '../../testIds';

const BAR = '#58a6ff';
const HOT = '#f85149';
const NOW = '#8b949e';

/** Before confirming a rescale: what each keyed vertex's subtasks carry now, and what they would carry at the new parallelism. */
export function RescalePlanView({ plan }: { plan: RescalePlan }): ReactNode {
  return (
    <div className="rescale-plan" data-testid={testIds.operations.plan}>
      <p className="small">
        <strong>Route: {plan.route === 'adaptive' ? 'in place (adaptive scheduler)' : 'stop with savepoint, then resubmit'}.</strong> {plan.routeReason}
      </p>
      {plan.refusals.map((r) => (
        <p key={r} className="notice notice--danger" role="alert">
          {r}
        </p>
      ))}
      {plan.warnings.map((w) => (
        <p key={w} className="notice notice--warning">
          {w}
        </p>
      ))}
      <p className="muted small">
        Load {plan.load.source === 'history' ? 'from the job\'s history' : 'measured just now'}: {plan.load.samples} samples, {formatTimestamp(plan.load.from)} – {formatTimestamp(plan.load.to)}.
      </p>
      {plan.vertices.map((v) => (
        <VertexPlan key={v.vertexId} vertex={v} />
      ))}
      <p className="rescale-plan__assumption small">
        <strong>How this is predicted.</strong> {plan.assumption}
      </p>
    </div>
  );
}

function ratio(r: number | null): string {
  return r === null ? '—' : `${r.toFixed(2)}×`;
}

function VertexPlan({ vertex }: { vertex: VertexRescalePlan }): ReactNode {
  const capacity = vertex.capacity?.recordsPerSecond ?? null;
  const now = vertex.observed.map((o) => ({ subtask: o.subtask, rate: o.recordsPerSecond ?? 0 }));
  const after = vertex.predicted.map((p) => ({ subtask: p.subtask, rate: p.recordsPerSecond, hot: p.hotKeys.join(', '), over: p.overCapacity }));
  const max = Math.max(capacity ?? 0, ...now.map((d) => d.rate), ...after.map((d) => d.rate)) * 1.1 || 1;
  return (
    <section className="rescale-plan__vertex" data-testid={testIds.operations.planVertex(vertex.vertexId)}>
      <h4>
        {vertex.vertexName}: parallelism {vertex.from} → {vertex.to} <span className="muted small">(max parallelism {vertex.maxParallelism})</span>
      </h4>
      <table className="table table--compact">
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col" className="num">
              max records/s per subtask
            </th>
            <th scope="col" className="num">
              mean
            </th>
            <th scope="col" className="num">
              max/mean
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">now, at {vertex.from}</th>
            <td className="num">{formatRate(vertex.before.max)}</td>
            <td className="num">{formatRate(vertex.before.mean)}</td>
            <td className="num">{ratio(vertex.before.maxOverMean)}</td>
          </tr>
          <tr>
            <th scope="row">predicted, at {vertex.to}</th>
            <td className="num">{formatRate(vertex.after.max)}</td>
            <td className="num">{formatRate(vertex.after.mean)}</td>
            <td className="num">{ratio(vertex.after.maxOverMean)}</td>
          </tr>
        </tbody>
      </table>
      {vertex.capacity ? (
        <p className="muted small">
          One subtask sustains about {formatRate(vertex.capacity.recordsPerSecond)} (subtask {vertex.capacity.subtask} processes that much at{' '}
          {Math.round(vertex.capacity.busyTimeMsPerSecond)} ms/s busy): the dashed line.
        </p>
      ) : null}
      <div className="rescale-plan__charts">
        <LoadChart title={`now (${vertex.from} subtasks)`} data={now} max={max} capacity={capacity} color={NOW} />
        <LoadChart title={`predicted (${vertex.to} subtasks)`} data={after} max={max} capacity={capacity} color={BAR} />
      </div>
      <ul className="rescale-plan__findings">
        {vertex.findings.map((f) => (
          <li key={f} data-testid={testIds.operations.planFinding}>
            {f}
          </li>
        ))}
      </ul>
    </section>
  );
}

function LoadChart({
  title,
  data,
  max,
  capacity,
  color,
}: {
  title: string;
  data: Array<{ subtask: number; rate: number; hot?: string; over?: boolean }>;
  max: number;
  capacity: number | null;
  color: string;
}): ReactNode {
  return (
    <figure className="rescale-plan__chart">
      <figcaption className="muted small">records/s per subtask, {title}</figcaption>
      <ResponsiveContainer width="100%" height={150}>
        <BarChart data={data} margin={{ top: 6, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#30363d" vertical={false} />
          <XAxis dataKey="subtask" tick={{ fill: '#8b949e', fontSize: 10 }} interval="preserveStartEnd" />
          <YAxis domain={[0, max]} tick={{ fill: '#8b949e', fontSize: 10 }} width={44} tickFormatter={(v: number) => formatRate(v).replace('/s', '')} />
          <Tooltip
            contentStyle={{ background: '#161b22', border: '1px solid #30363d', fontSize: 12 }}
            formatter={(value) => [formatRate(Number(value)), 'records']}
            labelFormatter={(s) => {
              const hot = data.find((d) => d.subtask === Number(s))?.hot;
              return `subtask ${String(s)}${hot ? ` · ${hot}` : ''}`;
            }}
          />
          {capacity ? <ReferenceLine y={capacity} stroke="#d29922" strokeDasharray="4 3" /> : null}
          <Bar dataKey="rate" isAnimationActive={false}>
            {data.map((d) => (
              <Cell key={d.subtask} fill={d.over || (capacity !== null && d.rate > capacity) ? HOT : color} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
