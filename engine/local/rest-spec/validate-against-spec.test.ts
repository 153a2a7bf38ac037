import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { flinkErrorBody, flinkErrorMessage } from './flink-error.ts';
import { isFlinkErrorBody, specHasOperation, validateAgainstSpec, validateSchema, WIRE_DEVIATIONS } from './validate-against-spec.ts';

const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../e2e/flink/recorded');
const REAL = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../checkpoint/testdata/real-2.2.1');
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('validateAgainstSpec', () => {
  it('accepts every recorded response of real Flink 2.3.0, 2.2.1 and 1.20.3 (the wire deviations are the observed ones)', () => {
    for (const version of ['2.3.0', '2.2.1', '1.20.3']) {
      const manifest = read(path.join(RECORDED, version, 'manifest.json')) as { jobId: string; files: Record<string, { path: string; status: number }> };
      let checked = 0;
      for (const [file, { path: url, status }] of Object.entries(manifest.files)) {
        if (status !== 200 || !existsSync(path.join(RECORDED, version, file))) continue;
        const template = url
          .replace(manifest.jobId, ':jobid')
          .replace(/\/vertices\/[0-9a-f]{32}/, '/vertices/:vertexid')
          .replace(/\/taskmanagers\/[^/]+$/, '/taskmanagers/:taskmanagerid')
          .replace(/\?.*$/, '');
        if (!specHasOperation('GET', template)) continue;
        expect(validateAgainstSpec('GET', template, 200, read(path.join(RECORDED, version, file))), `${version} ${file}`).toEqual([]);
        checked++;
      }
      expect(checked, `${version}: recorded responses checked`).toBeGreaterThanOrEqual(30);
    }
  });

  it('accepts the captured checkpoint details of a real 2.2.1, including "NaN" percentiles', () => {
    expect(validateAgainstSpec('GET', '/jobs/:jobid/checkpoints/details/:checkpointid', 200, read(path.join(REAL, 'details-in-progress.json')))).toEqual([]);
    expect(validateAgainstSpec('GET', '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid', 200, read(path.join(REAL, 'subtasks-completed.json')))).toEqual([]);
  });

  it('without the deviations, the real wire fails the spec as written', () => {
    const body = read(path.join(RECORDED, '2.2.1', 'checkpoints.json'));
    expect(validateAgainstSpec('GET', '/jobs/:jobid/checkpoints', 200, body, { wireDeviations: false })).not.toEqual([]);
    expect(WIRE_DEVIATIONS.map((d) => d.id)).toContain('nan-doubles');
  });

  it('has teeth: wrong types, unknown enum values and unknown className values are rejected', () => {
    expect(validateSchema('StatsSummaryDto', { min: 1, max: 2, avg: 1.5, p50: 'NaN' })).not.toEqual([]); // avg is int64
    expect(validateSchema('StatsSummaryDto', { min: 1, max: 2, avg: 1, p50: 'fast' })).not.toEqual([]);
    expect(validateSchema('CheckpointStatistics', { className: 'completed', id: 1, discarded: 'no' })).not.toEqual([]);
    expect(validateSchema('CheckpointStatistics', { className: 'cancelled', id: 1 })).not.toEqual([]);
    expect(validateSchema('SubtaskCheckpointStatistics', { className: 'completed', index: 0, checkpoint: { sync: '1' } })).not.toEqual([]);
    expect(validateAgainstSpec('GET', '/jobs/:jobid/savepoints/:triggerid', 200, { status: { id: 'DONE' } })).not.toEqual([]);
    expect(validateAgainstSpec('POST', '/jobs/:jobid/savepoints', 202, { 'request-id': 'not-hex' })).not.toEqual([]);
    expect(validateAgainstSpec('GET', '/no/such/path', 200, {})).toEqual(['GET /no/such/path is not in the spec']);
    expect(validateAgainstSpec('POST', '/jobs/:jobid/savepoints', 200, {})[0]).toMatch(/does not document status 200/);
  });

  it('Flink error bodies', () => {
    const body = flinkErrorBody('Could not find checkpointing statistics for checkpoint 999.', ['a.B.c(B.java:1)']);
    expect(body).toEqual({ errors: ['org.apache.flink.runtime.rest.handler.RestHandlerException: Could not find checkpointing statistics for checkpoint 999.\n\tat a.B.c(B.java:1)\n'] });
    expect(isFlinkErrorBody(body)).toBe(true);
    expect(isFlinkErrorBody({ errors: [] })).toBe(false);
    expect(flinkErrorMessage(body.errors[0])).toBe('Could not find checkpointing statistics for checkpoint 999.');
  });
});
