import type { ReactNode } from 'react';
import { cancelApplicationImpact } from '../../../engine/contracts/application-cancel-impact';
import type { ApplicationDetail } from '../../../engine/contracts/applications';
import type { JournalEntry } from '../../../engine/contracts/operations';
import { testIds } from '../../testIds';
import { CancelActions } from '../operations/CancelActions';
import { useStartOperation } from '../operations/useStartOperation';

/** Cancel of an application, confirmed with its impact: which jobs end, and that their state since the last checkpoint is lost. */
export function CancelApplicationDialog({ app, onStarted, onClose }: { app: ApplicationDetail; onStarted: (entry: JournalEntry) => void; onClose: () => void }): ReactNode {
  const { start, starting, error } = useStartOperation();
  const onConfirm = async () => {
    const entry = await start({ kind: 'cancel-application', clusterId: app.clusterId, applicationId: app.id });
    if (entry) onStarted(entry);
  };
  return (
    <div className="confirm confirm--operation" role="alertdialog" aria-label="Cancel the application?" data-testid={testIds.operations.confirm}>
      <p>{cancelApplicationImpact(app)}</p>
      <CancelActions what="application" starting={starting} error={error} onConfirm={onConfirm} onClose={onClose} />
    </div>
  );
}
