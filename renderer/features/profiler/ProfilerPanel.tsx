import { useEffect, useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import { MAX_PROFILE_SECONDS, PROFILING_MODES, type ProfileResult, type ProfilerView, type ProfilingMode } from '../../../engine/contracts/profiler';
import { ErrorBanner, PollErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { FlameExplorer } from '../inspect/FlameBars';
import { safeFileName } from '../../../engine/contracts/logs';
import { downloadText } from '../logs/downloadText';
import { useProfilerApi } from './api';

/** While a profile runs, its list is asked for this often (the profile itself lasts its duration). */
const RUNNING_POLL_MS = 2_000;
const IDLE_POLL_MS = 30_000;

/**
 * Flink's profiler on one process (the JobManager or a TaskManager): start a profile, see it run, open its flame
 * graph (drawn by the console from the file's frames, never the file's own HTML and scripts) or save the file.
 * Where the cluster has no profiler, says why and how to turn it on.
 */
export function ProfilerPanel({ clusterId, processId }: { clusterId: string; processId: string }): ReactNode {
  const api = useProfilerApi();
  // The profile just started, until the list shows it: the list is asked for often meanwhile.
  const [awaiting, setAwaiting] = useState<number | null>(null);
  const [running, setRunning] = useState(false);
  const poll = usePolling<ProfilerView>(() => api.profiles(clusterId, processId), running ? RUNNING_POLL_MS : IDLE_POLL_MS, { key: `${clusterId}/${processId}`, paused: false });
  const view = poll.data;
  useEffect(() => {
    setRunning((view?.profiles.some((p) => p.status === 'RUNNING') ?? false) || (awaiting !== null && !view?.profiles.some((p) => p.triggeredAt === awaiting)));
  }, [view, awaiting]);
  const [mode, setMode] = useState<ProfilingMode>('ITIMER');
  const [duration, setDuration] = useState('10');
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [opened, setOpened] = useState<ProfileResult | null>(null);

  const start = async () => {
    setError(null);
    try {
      const started = await api.start(clusterId, processId, { mode, durationSeconds: Number(duration) });
      setAwaiting(started.triggeredAt);
      poll.refresh();
    } catch (e) {
      setError(toErrorInfo(e));
    }
  };
  const open = async (fileName: string) => {
    setError(null);
    try {
      setOpened(await api.open(clusterId, processId, fileName));
    } catch (e) {
      setError(toErrorInfo(e));
    }
  };
  const validDuration = /^\d{1,3}$/.test(duration) && Number(duration) >= 1 && Number(duration) <= MAX_PROFILE_SECONDS;

  return (
    <Panel title="Profiler" poll={poll} testId={testIds.profiler.panel}>
      <PollErrorBanner poll={poll} context="Listing the profiles failed" />
      {error ? <ErrorBanner error={error} context="The profiler call failed" /> : null}
      {view && !view.available ? (
        <p className="hint" data-testid={testIds.profiler.unavailable}>
          {view.unavailable}
        </p>
      ) : null}
      {view?.available ? (
        <>
          <div className="flame-controls">
            <label>
              Mode{' '}
              <select value={mode} onChange={(e) => setMode(e.target.value as ProfilingMode)} data-testid={testIds.profiler.mode}>
                {PROFILING_MODES.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </label>
            <label>
              Seconds <input type="number" min={1} max={MAX_PROFILE_SECONDS} value={duration} onChange={(e) => setDuration(e.target.value)} style={{ width: '5rem' }} data-testid={testIds.profiler.duration} />
            </label>
            <button type="button" className="button button--small button--primary" onClick={() => void start()} disabled={!validDuration || running} data-testid={testIds.profiler.start}>
              {running ? 'Profiling…' : 'Start profile'}
            </button>
            {!validDuration ? <span className="muted small">1 to {MAX_PROFILE_SECONDS} seconds</span> : null}
          </div>
          {view.profiles.length === 0 ? (
            <p className="muted">No profiles of this process yet.</p>
          ) : (
            <table className="table table--compact" data-testid={testIds.profiler.list}>
              <thead>
                <tr>
                  <th>Started</th>
                  <th>Mode</th>
                  <th className="num">Seconds</th>
                  <th>Status</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {view.profiles.map((p) => (
                  <tr key={`${p.triggeredAt}/${p.mode}`} data-status={p.status}>
                    <td>{formatTimestamp(p.triggeredAt)}</td>
                    <td>{p.mode}</td>
                    <td className="num">{p.durationSeconds}</td>
                    <td title={p.message ?? undefined}>{p.status === 'FAILED' ? `FAILED: ${p.message ?? 'no reason given'}` : p.status}</td>
                    <td>
                      {p.fileName ? (
                        <button type="button" className="button button--small" onClick={() => void open(p.fileName!)} data-testid={testIds.profiler.open(p.fileName)}>
                          Open
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
      {opened ? (
        <section data-testid={testIds.profiler.result} aria-label="Profile">
          <p className="flame-sentence">
            <strong>{opened.fileName}</strong>: {opened.sentence}{' '}
            <button type="button" className="button button--small" onClick={() => downloadText(safeFileName(opened.fileName), opened.html)}>
              Save the HTML
            </button>
          </p>
          <FlameExplorer key={opened.fileName} graph={opened} />
        </section>
      ) : null}
    </Panel>
  );
}
