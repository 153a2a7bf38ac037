import { useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JarInfo, JarList } from '../../../engine/contracts/jars';
import { MAX_JAR_UPLOAD_BYTES } from '../../../engine/contracts/jars';
import type { JournalEntry } from '../../../engine/contracts/operations';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { ErrorBanner, PollErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { OperationStatus } from '../operations/OperationStatus';
import { useJournalEntry } from '../operations/useStartOperation';
import { useJarsApi } from './api';
import { JarRunDialog } from './JarRunDialog';

/** The file's bytes as base64, for the engine call (the bridge carries JSON). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * The cluster's jars (`GET /jars`): upload one, delete one, or run one (from a savepoint) through Flink's plan and the
 * resubmit's confirmation and journal.
 */
export function JarsPanel({ clusterId, refresh }: { clusterId: string; refresh: ClusterRefresh }): ReactNode {
  const jarsApi = useJarsApi();
  const [reload, setReload] = useState(0);
  const poll = usePolling<JarList>(() => jarsApi.list(clusterId), null, { key: clusterId, paused: refresh.paused, refreshSignal: refresh.refreshSignal + reload });
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<{ error: ErrorInfo; context: string } | null>(null);
  const [running, setRunning] = useState<JarInfo | null>(null);
  const [deleting, setDeleting] = useState<JarInfo | null>(null);
  const [started, setStarted] = useState<JournalEntry | null>(null);
  const followed = useJournalEntry(started);

  const upload = async (file: File | undefined) => {
    if (!file || busy) return;
    setActionError(null);
    if (!file.name.toLowerCase().endsWith('.jar')) return setActionError({ error: { kind: 'invalid-input', message: `Only jar files can be uploaded: ${file.name} does not end in .jar.` }, context: 'Not uploaded' });
    if (file.size > MAX_JAR_UPLOAD_BYTES) return setActionError({ error: { kind: 'invalid-input', message: `${file.name} is larger than Flink's default upload limit (100 MiB).` }, context: 'Not uploaded' });
    setBusy(true);
    try {
      await jarsApi.upload(clusterId, { fileName: file.name, contentBase64: await base64Of(file) });
      setReload((n) => n + 1);
    } catch (e) {
      setActionError({ error: toErrorInfo(e), context: `Uploading ${file.name} failed` });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (jar: JarInfo) => {
    setBusy(true);
    setActionError(null);
    try {
      await jarsApi.delete(clusterId, jar.id);
      setDeleting(null);
      setReload((n) => n + 1);
    } catch (e) {
      setActionError({ error: toErrorInfo(e), context: `Deleting ${jar.name} failed` });
    } finally {
      setBusy(false);
    }
  };

  const list = poll.data;
  return (
    <Panel
      title="Jars"
      poll={poll}
      testId={testIds.jars.panel}
      actions={
        list && !list.unavailable ? (
          <label className="button button--tiny">
            {busy ? 'Working…' : 'Upload jar…'}
            <input
              type="file"
              accept=".jar,application/java-archive,application/x-java-archive"
              hidden
              disabled={busy}
              data-testid={testIds.jars.upload}
              onChange={(e) => {
                void upload(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </label>
        ) : null
      }
    >
      <PollErrorBanner poll={poll} context="Listing the jars failed" />
      {actionError ? <ErrorBanner error={actionError.error} context={actionError.context} /> : null}
      {list?.unavailable ? <p className="muted">{list.unavailable}</p> : null}
      {list && !list.unavailable && list.jars.length === 0 ? <p className="muted">No jars uploaded.</p> : null}
      {list && list.jars.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Uploaded</th>
                <th scope="col">Entry classes</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {list.jars.map((jar) => (
                <tr key={jar.id} data-testid={testIds.jars.row(jar.id)}>
                  <td>
                    {jar.name}
                    <div className="muted small mono">{jar.id}</div>
                  </td>
                  <td className="nowrap">{jar.uploaded ? formatTimestamp(jar.uploaded) : '—'}</td>
                  <td className="mono small">{jar.entryClasses.join(', ') || '—'}</td>
                  <td className="nowrap">
                    <button type="button" className="button button--tiny" data-testid={testIds.jars.run(jar.id)} onClick={() => (setStarted(null), setRunning(jar))}>
                      Run…
                    </button>{' '}
                    <button type="button" className="button button--tiny" data-testid={testIds.jars.delete(jar.id)} onClick={() => setDeleting(jar)}>
                      Delete…
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {deleting ? (
        <div className="confirm" role="alertdialog" aria-label="Delete the jar?" data-testid={testIds.operations.confirm}>
          <p>
            Delete <code className="mono">{deleting.name}</code> from the cluster? It can no longer be run until it is uploaded again; jobs already running from it keep running.
          </p>
          <div className="confirm__actions">
            <button type="button" className="button button--small button--danger" disabled={busy} onClick={() => void remove(deleting)} data-testid={testIds.operations.confirmButton}>
              Delete the jar
            </button>
            <button type="button" className="button button--small" disabled={busy} onClick={() => setDeleting(null)}>
              Keep it
            </button>
          </div>
        </div>
      ) : null}
      {running && !followed ? <JarRunDialog clusterId={clusterId} jar={running} onStarted={setStarted} onClose={() => setRunning(null)} /> : null}
      {followed ? <OperationStatus entry={followed} clusterId={clusterId} /> : null}
    </Panel>
  );
}
