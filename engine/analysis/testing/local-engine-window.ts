import { FlinkRestClient } from '../../flink-rest/client.ts';
import type { JobSample } from '../../history/job-sample.ts';
import { startLocalEngine, type StartLocalEngineOptions } from '../../local/start-local-engine.ts';
import { ManualClock } from '../../local/time/clock.ts';
import { sampleJob } from '../../sampling/sample-job.ts';

export const LOCAL_T0 = 1_767_225_600_000;

/**
 * Samples the local engine's job through its REST API exactly as the console's sampler does, on a virtual clock:
 * minutes of a scenario in seconds, the same numbers on every run. Recorded data from the local engine for the
 * analyses' tests.
 */
export async function recordLocalEngine(
  options: Omit<StartLocalEngineOptions, 'port' | 'time' | 'clock'> & { seconds: number; intervalMs?: number },
): Promise<JobSample[]> {
  const clock = new ManualClock(LOCAL_T0);
  const handle = await startLocalEngine({ ...options, port: 0, time: 'manual', clock });
  try {
    const client = new FlinkRestClient({ baseUrl: handle.url });
    const job = [...handle.engine.cluster.jobs.values()][0];
    const interval = options.intervalMs ?? 10_000;
    const samples: JobSample[] = [];
    let previous: JobSample | undefined;
    for (let t = 0; t < options.seconds * 1000; t += interval) {
      handle.engine.advance(interval);
      previous = await sampleJob(client, 'local', job.jobId, previous, () => clock.now());
      samples.push(previous);
    }
    return samples;
  } finally {
    await handle.close();
  }
}

/** The samples taken in `[fromS, toS]` seconds after the start. */
export function between(samples: JobSample[], fromS: number, toS: number): JobSample[] {
  return samples.filter((s) => s.t >= LOCAL_T0 + fromS * 1000 && s.t <= LOCAL_T0 + toS * 1000);
}
