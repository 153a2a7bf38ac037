import { useState, type ReactNode } from 'react';
import { askNotificationPermissionOnce } from '../../api/shell-client';
import { notifyWhenDone } from '../../app/notifyWhenDone';
import { appShell } from '../../app/shell';
import { testIds } from '../../testIds';
import { WindowSelect } from '../diagnosis/WindowSelect';
import { useExportsApi } from './api';

const FORMATS = [
  { id: 'html', label: 'HTML (to read and print)' },
  { id: 'csv', label: 'CSV, one row per subtask' },
  { id: 'vertices-csv', label: 'CSV, one row per vertex' },
  { id: 'json', label: 'JSON (the whole report)' },
] as const;

/**
 * "Export skew report" and "Save incident bundle" of the shown job, over a window of the history the console keeps
 * while the page is open: a save dialog on the desktop, a download in web mode. The window starts as the diagnosis's.
 * Opt-in, the finding's subtask's flame graph and log lines go into the HTML report and the bundle (whose manifest
 * says which were included, or why not).
 */
export function ExportReportMenu({ clusterId, jobId, windowMs }: { clusterId: string; jobId: string; windowMs: number }): ReactNode {
  const exportsApi = useExportsApi();
  const [format, setFormat] = useState<string>('html');
  const [windowChoice, setWindowChoice] = useState<number | null>(null);
  const [busy, setBusy] = useState<'report' | 'bundle' | null>(null);
  // Opt-in: read from the cluster when the export is made (a flame graph takes Flink about 5 s to sample).
  const [flameGraph, setFlameGraph] = useState(false);
  const [logExcerpt, setLogExcerpt] = useState(false);
  const chosenWindow = windowChoice ?? windowMs;
  // CSV and JSON hold the report's figures only; the attachments go into the HTML report and the bundle.
  const reportAttachments = format === 'html' ? { flameGraph, logExcerpt } : {};

  const run = (kind: 'report' | 'bundle'): void => {
    if (busy) return;
    askNotificationPermissionOnce();
    setBusy(kind);
    const work =
      kind === 'report'
        ? exportsApi.skewReport(clusterId, jobId, { windowMs: chosenWindow, format, ...reportAttachments }).then(async (file) => ({ name: file.suggestedName, saved: await appShell().saveFile(file) }))
        : exportsApi.incidentBundle(clusterId, jobId, { windowMs: chosenWindow, flameGraph, logExcerpt }).then(async (file) => ({
            name: file.suggestedName,
            saved: await appShell().saveFile({ suggestedName: file.suggestedName, mime: file.mime, content: base64Bytes(file.contentBase64) }),
          }));
    notifyWhenDone(work, kind === 'report' ? 'Skew report' : 'Incident bundle', {
      describe: ({ name, saved }) => (saved.saved ? `${name} saved to ${saved.location}.` : 'Not saved: the save was cancelled.'),
    })
      .catch(() => undefined) // already reported by notifyWhenDone
      .finally(() => setBusy(null));
  };

  return (
    <details className="export-report" data-testid={testIds.exports.reportMenu}>
      <summary className="button button--small">Export skew report</summary>
      <div className="export-report__panel panel" role="group" aria-label="Export skew report">
        <label>
          <span className="muted small">Format</span>
          <select value={format} onChange={(e) => setFormat(e.target.value)} data-testid={testIds.exports.reportFormat}>
            {FORMATS.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="muted small">Window</span>
          <WindowSelect value={chosenWindow} onChange={setWindowChoice} testId={testIds.exports.reportWindow} />
        </label>
        <fieldset className="export-report__attachments">
          <legend className="muted small">About the subtask the finding names, from the cluster now (HTML report and bundle)</legend>
          <label className="small">
            <input type="checkbox" checked={flameGraph} onChange={(e) => setFlameGraph(e.target.checked)} data-testid={testIds.exports.attachFlameGraph} /> its flame graph (Flink samples it for about 5 s)
          </label>
          <label className="small">
            <input type="checkbox" checked={logExcerpt} onChange={(e) => setLogExcerpt(e.target.checked)} data-testid={testIds.exports.attachLogExcerpt} /> its lines in its TaskManager&rsquo;s log
          </label>
          {format !== 'html' && (flameGraph || logExcerpt) ? <p className="muted small">Not in a {format === 'json' ? 'JSON' : 'CSV'} report: in the HTML report and the bundle.</p> : null}
        </fieldset>
        <p className="muted small">From the samples the console recorded of this job: a window longer than that covers what there is, and the report says so.</p>
        <div className="export-report__actions">
          <button type="button" className="button button--primary button--small" disabled={busy !== null} onClick={() => run('report')} data-testid={testIds.exports.skewReport}>
            {busy === 'report' ? 'Exporting…' : 'Export report'}
          </button>
          <button type="button" className="button button--small" disabled={busy !== null} onClick={() => run('bundle')} data-testid={testIds.exports.incidentBundle}>
            {busy === 'bundle' ? 'Saving…' : 'Save incident bundle'}
          </button>
        </div>
      </div>
    </details>
  );
}

function base64Bytes(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
