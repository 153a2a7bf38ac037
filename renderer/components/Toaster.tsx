import type { ReactNode } from 'react';
import { testIds } from '../testIds';
import { dismissToast, useToasts } from './toasts';

/** The page's toasts, bottom right; announced to screen readers (errors assertively). */
export function Toaster(): ReactNode {
  const toasts = useToasts();
  return (
    <div className="toaster" data-testid={testIds.toasts.region} aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast--${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'} data-testid={testIds.toasts.toast}>
          <div className="toast__text">
            <strong className="toast__title">{toast.title}</strong>
            {toast.body ? <span className="toast__body">{toast.body}</span> : null}
          </div>
          <button type="button" className="toast__close" aria-label="Dismiss" onClick={() => dismissToast(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
