import type { ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { RecordedJob } from '../../../engine/contracts/history';
import { formatTimestamp } from '../../components/format';
import { testIds } from '../../testIds';

/** Says, before anything else, that the page shows the console's recording of a job, not the cluster's present. */
export function RecordingBanner({ recording, gone, error, jobsHref }: { recording: RecordedJob; gone: boolean; error: ErrorInfo | null; jobsHref: string }): ReactNode {
  return (
    <section className="panel recording-banner" role="status" data-testid={testIds.history.recordingBanner}>
      <h2>A recording from the console&apos;s history</h2>
      <p>
        {gone ? 'The cluster no longer knows this job' : 'The cluster does not answer'}: what this page shows is what the console recorded of it —{' '}
        {recording.samples} samples from {formatTimestamp(recording.firstSampleAt)} to {formatTimestamp(recording.lastSampleAt)}, and{' '}
        {recording.checkpoints} checkpoints. At the last sample the job was {recording.lastState}.
      </p>
      {error ? <p className="muted small">The cluster said: {error.message}</p> : null}
      <a className="button" href={jobsHref}>
        Back to the jobs list
      </a>
    </section>
  );
}
