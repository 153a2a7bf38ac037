import type { ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import { ErrorBanner } from '../../components/ErrorBanner';
import { testIds } from '../../testIds';

/** The buttons of a cancel's confirmation (a job's or an application's), and why it was not sent. */
export function CancelActions({ what, starting, error, onConfirm, onClose }: { what: string; starting: boolean; error: ErrorInfo | null; onConfirm: () => Promise<void>; onClose: () => void }): ReactNode {
  return (
    <>
      <div className="confirm__actions">
        <button type="button" className="button button--small button--danger" disabled={starting} onClick={() => void onConfirm()} data-testid={testIds.operations.confirmButton}>
          {starting ? 'Sending…' : `Cancel the ${what}`}
        </button>
        <button type="button" className="button button--small" disabled={starting} onClick={onClose}>
          Keep it running
        </button>
      </div>
      {error ? <ErrorBanner error={error} context="Not cancelled" /> : null}
    </>
  );
}
