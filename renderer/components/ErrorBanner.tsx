import type { ReactNode } from 'react';
import type { ErrorInfo } from '../../engine/contracts/errors';
import { testIds } from '../testIds';
import type { Polled } from './usePolling';

const KIND_TITLE: Partial<Record<ErrorInfo['kind'], string>> = {
  'invalid-input': 'Invalid input',
  'invalid-url': 'Invalid URL',
  dns: 'Host not found',
  refused: 'Connection refused',
  tls: 'TLS problem',
  timeout: 'Timed out',
  'not-flink': 'Not a Flink REST API',
  unauthorized: 'Not authorized',
  forbidden: 'Forbidden',
  'not-found': 'Not found',
  'server-error': 'Cluster error',
  'malformed-response': 'Unreadable answer',
  'unexpected-response': 'Unexpected answer',
  'unsupported-version': 'Unsupported Flink version',
  network: 'Engine unreachable',
  internal: 'Console error',
  'redirect-refused': 'Redirect not followed',
};

export function errorTitle(error: ErrorInfo): string {
  return KIND_TITLE[error.kind] ?? 'Error';
}

export interface ErrorBannerProps {
  error: ErrorInfo;
  /** What failed, e.g. "Refreshing the job list failed". */
  context?: string;
  /** True when older data is still shown below. */
  stale?: boolean;
  actions?: ReactNode;
  testId?: string;
}

/** Where a call failed, what the engine said, and which endpoint: shown inside the panel that made the call. */
export function ErrorBanner({ error, context, stale, actions, testId }: ErrorBannerProps): ReactNode {
  return (
    <div className="error-banner" role="alert" data-testid={testId ?? testIds.errors.banner} data-kind={error.kind}>
      <div className="error-banner__body">
        <strong className="error-banner__title">
          {context ? `${context}: ` : ''}
          {errorTitle(error)}
          {error.status != null ? ` (HTTP ${error.status})` : ''}
        </strong>
        <p className="error-banner__message">{error.message}</p>
        {error.endpoint ? (
          <p className="error-banner__endpoint">
            Endpoint: <code data-testid={testIds.errors.endpoint}>{error.endpoint}</code>
          </p>
        ) : null}
        {stale ? <p className="error-banner__stale">Showing the last data that loaded; it may be out of date.</p> : null}
      </div>
      {actions ? <div className="error-banner__actions">{actions}</div> : null}
    </div>
  );
}

/** The banner of a polled panel: its last error, with a Retry that refreshes at once. Nothing when all is well. */
export function PollErrorBanner({ poll, context }: { poll: Polled<unknown>; context: string }): ReactNode {
  if (!poll.error) return null;
  return (
    <ErrorBanner
      error={poll.error}
      context={context}
      stale={poll.stale}
      actions={
        <button type="button" className="button button--small" onClick={poll.refresh}>
          Retry
        </button>
      }
    />
  );
}
