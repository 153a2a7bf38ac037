import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpoints } from '../../flink-rest/endpoints.ts';
import type { JobSample } from '../../history/job-sample.ts';
import { subtaskColumnsOf, taskManagerIndex, toJobSample, type FetchedVertex } from '../../sampling/sample-job.ts';
import { withRates } from '../../sampling/sample-rates.ts';

const TESTDATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../testdata');

interface RecordedWindow {
  flinkVersion: string;
  jobId: string;
  samples: Array<{ t: number; jobDetails: unknown; vertices: Array<{ details: unknown; watermarks: unknown }>; checkpoints: unknown }>;
}

/**
 * A window recorded from a real Flink (e2e/flink/record-window.ts), replayed through the sampler's own code: the raw
 * responses parsed with the client's schemas, turned into samples with their rates, as if sampled now.
 */
export function recordedFlinkWindow(version: string): { samples: JobSample[]; jobId: string } {
  const recorded = JSON.parse(readFileSync(path.join(TESTDATA, `real-${version}-window.json`), 'utf8')) as RecordedWindow;
  const samples: JobSample[] = [];
  let previous: JobSample | undefined;
  for (const raw of recorded.samples) {
    const details = endpoints.jobDetails.response.parse(raw.jobDetails);
    const taskManagers = taskManagerIndex();
    const vertices: FetchedVertex[] = raw.vertices.map((v, i) => ({
      subtasks: subtaskColumnsOf(
        details.vertices[i].parallelism,
        endpoints.vertexDetails.response.parse(v.details),
        endpoints.vertexWatermarks.response.parse(v.watermarks),
        taskManagers.indexOf,
      ),
    }));
    const checkpoints = endpoints.jobCheckpoints.response.safeParse(raw.checkpoints);
    previous = withRates(previous, toJobSample('real-flink', details, vertices, taskManagers.list, checkpoints.success ? checkpoints.data : undefined, raw.t));
    samples.push(previous);
  }
  return { samples, jobId: recorded.jobId };
}

/** The Flink versions with a recorded window. */
export const RECORDED_FLINK_VERSIONS = ['2.2.1', '1.20.3'];
