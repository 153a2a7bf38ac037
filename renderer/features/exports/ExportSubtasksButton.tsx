import { useState, type ReactNode } from 'react';
import { askNotificationPermissionOnce } from '../../api/shell-client';
import { notifyWhenDone } from '../../app/notifyWhenDone';
import { appShell } from '../../app/shell';
import { testIds } from '../../testIds';
import { useExportsApi } from './api';

/**
 * Saves every subtask's metrics of the job as CSV: a save dialog on the desktop, a download in web mode.
 * On a big job it takes a while (3 requests per vertex), so the console says when it is done, even in the background.
 */
export function ExportSubtasksButton({ clusterId, jobId }: { clusterId: string; jobId: string }): ReactNode {
  const exportsApi = useExportsApi();
  const [busy, setBusy] = useState(false);

  const onExport = (): void => {
    if (busy) return;
    askNotificationPermissionOnce();
    setBusy(true);
    const work = exportsApi.subtaskMetrics(clusterId, jobId).then(async (file) => ({ file, saved: await appShell().saveFile(file) }));
    notifyWhenDone(work, 'Export of subtask metrics', {
      describe: ({ file, saved }) => (saved.saved ? `${file.rows} subtasks saved to ${saved.location}.` : 'Not saved: the save was cancelled.'),
    })
      .catch(() => undefined) // already reported by notifyWhenDone
      .finally(() => setBusy(false));
  };

  return (
    <button
      type="button"
      className="button button--small"
      onClick={onExport}
      disabled={busy}
      data-testid={testIds.exports.subtaskMetrics}
      title="Every subtask of every vertex, with busy, back-pressured and idle time, records and watermarks (CSV)"
    >
      {busy ? 'Exporting…' : 'Export subtasks (CSV)'}
    </button>
  );
}
