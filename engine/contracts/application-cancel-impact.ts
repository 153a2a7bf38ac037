import type { ApplicationDetail } from './applications.ts';

/**
 * What cancelling an application does, in the words its confirmation shows (the app's dialog and the CLI's prompt):
 * which jobs end, and that their state since the last checkpoint is lost. Pure; shared by both edges.
 */
export function cancelApplicationImpact(app: Pick<ApplicationDetail, 'id' | 'name' | 'jobs'>): string {
  const live = app.jobs.filter((j) => !['FINISHED', 'FAILED', 'CANCELED', 'SUSPENDED'].includes(j.state));
  const jobs =
    live.length === 0
      ? 'It has no running job: only the application (its main()) ends.'
      : `${live.length === 1 ? 'Its job ends' : `Its ${live.length} jobs end`}: ${live.map((j) => `${j.name} (${j.id}, ${j.state})`).join(', ')}.`;
  const state =
    live.length === 0
      ? ''
      : ` ${live.length === 1 ? 'It stops' : 'They stop'} without a savepoint: the state built up since the last completed checkpoint is lost. To keep it, stop ${live.length === 1 ? 'the job' : 'each job'} with a savepoint first.`;
  return `Cancel application ${app.name} (${app.id}). ${jobs}${state}`;
}
