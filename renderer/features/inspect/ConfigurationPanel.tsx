import { useState, type ReactNode } from 'react';
import type { ConfigEntry, ConfigurationView } from '../../../engine/contracts/inspect';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { useInspectApi } from './api';

/** Configuration changes only with a (re)submission: read once a minute at most, whatever the page's refresh. */
const CONFIGURATION_REFRESH_MS = 60_000;

/** The job's configuration and user parameters, its checkpoint configuration, the JobManager's configuration and JVM. */
export function ConfigurationPanel({ clusterId, jobId }: { clusterId: string; jobId: string }): ReactNode {
  const api = useInspectApi();
  const poll = usePolling<ConfigurationView>(() => api.configuration(clusterId, jobId), CONFIGURATION_REFRESH_MS, { key: `${clusterId}/${jobId}`, paused: false });
  const [filter, setFilter] = useState('');
  const view = poll.data;
  const matches = (e: ConfigEntry) => filter === '' || `${e.key} ${e.value}`.toLowerCase().includes(filter.toLowerCase());
  return (
    <Panel title="Configuration" poll={poll} testId={testIds.inspect.configuration}>
      <PollErrorBanner poll={poll} context="Loading the configuration failed" />
      {view ? (
        <>
          <input type="search" className="search" placeholder="Filter keys and values" aria-label="Filter the configuration" value={filter} onChange={(e) => setFilter(e.target.value)} data-testid={testIds.inspect.configFilter} />
          {view.job ? (
            <section aria-label="Job configuration">
              <h3>Job</h3>
              <dl className="facts">
                <dt>Parallelism</dt>
                <dd>{view.job.parallelism ?? 'not sent'}</dd>
                <dt>Restart strategy</dt>
                <dd>{view.job.restartStrategy ?? 'not sent'}</dd>
                <dt>Object reuse</dt>
                <dd>{view.job.objectReuse === null ? 'not sent' : view.job.objectReuse ? 'on' : 'off'}</dd>
              </dl>
              <Entries section="user" title="User parameters" entries={view.job.userConfig.filter(matches)} none="The job sets no user parameters." />
            </section>
          ) : null}
          {view.checkpoints === null ? (
            <p className="muted">The job does not checkpoint: the cluster has no checkpoint configuration for it.</p>
          ) : (
            <Entries section="checkpoints" title="Checkpoint configuration" entries={view.checkpoints.filter(matches)} none="Nothing matches." />
          )}
          <Entries section="jobmanager" title="JobManager configuration" entries={view.jobManager.filter(matches)} none="Nothing matches." />
          <section aria-label="JobManager environment">
            <h3>JobManager environment</h3>
            {view.environment === null ? (
              <p className="muted">This cluster does not serve its environment (GET /jobmanager/environment is Flink 1.17+).</p>
            ) : (
              <>
                <p>
                  JVM <span className="mono">{view.environment.jvmVersion ?? 'not sent'}</span> ({view.environment.arch ?? '?'})
                </p>
                <details>
                  <summary>{view.environment.options.length} JVM options, {view.environment.classpath.length} classpath entries</summary>
                  <pre className="mono small">{[...view.environment.options, '', ...view.environment.classpath].join('\n')}</pre>
                </details>
              </>
            )}
          </section>
        </>
      ) : !poll.error ? (
        <p className="muted">Loading the configuration…</p>
      ) : null}
    </Panel>
  );
}

function Entries({ section, title, entries, none }: { section: string; title: string; entries: ConfigEntry[]; none: string }): ReactNode {
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      {entries.length === 0 ? (
        <p className="muted">{none}</p>
      ) : (
        <div className="table-wrap">
          <table className="table config-table">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.key} data-testid={testIds.inspect.configEntry(section, e.key)}>
                  <td className="mono small">{e.key}</td>
                  <td className="mono small">
                    {e.redacted ? <span className="redacted" title="Flink hides this value: the console never receives it">redacted by Flink</span> : e.value}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
