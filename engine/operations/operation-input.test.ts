import { describe, expect, it } from 'vitest';
import { parseJournalFilter, parseOperationRequest, parseResubmitPlanRequest } from './operation-input.ts';

const job = 'a'.repeat(32);
const trigger = 'b'.repeat(32);

describe('operation input at the edge', () => {
  it('takes well-formed requests of every kind', () => {
    expect(parseOperationRequest({ kind: 'stop', clusterId: 'c', jobId: job, triggerId: trigger, drain: true, format: 'native' })).toMatchObject({ kind: 'stop', drain: true });
    expect(parseOperationRequest({ kind: 'rescale', clusterId: 'c', jobId: job, triggerId: trigger, parallelism: { v: 3 }, hotKeys: [{ key: 'acme', recordsPerSecond: 400 }] })).toMatchObject({ kind: 'rescale' });
    expect(parseOperationRequest({ kind: 'resubmit', clusterId: 'c', triggerId: trigger, program: { jarId: 'x.jar' } })).toMatchObject({ kind: 'resubmit' });
  });

  it('refuses what is malformed with a sentence naming the field', () => {
    expect(() => parseOperationRequest({ kind: 'savepoint', clusterId: 'c', jobId: job, triggerId: 'nope' })).toThrow('Operation request: `triggerId` must be 32 lower-case hex characters.');
    expect(() => parseOperationRequest({ kind: 'stop', clusterId: 'c', jobId: job, triggerId: trigger })).toThrow(/Operation request: `drain`/);
    expect(() => parseOperationRequest({ kind: 'rescale', clusterId: 'c', jobId: job, triggerId: trigger, parallelism: 0 })).toThrow(/`parallelism`/);
    expect(() => parseOperationRequest({ kind: 'launch', clusterId: 'c' })).toThrow(/Operation request: `kind`/);
    expect(() => parseOperationRequest(null)).toThrow(/Operation request/);
  });

  it('checks a resubmit plan request as the resubmit it previews', () => {
    expect(parseResubmitPlanRequest({ clusterId: 'c', jobId: job, program: { jarId: 'x.jar', programArgs: ['--rate', '10'] }, parallelism: 4 })).toMatchObject({ parallelism: 4 });
    expect(() => parseResubmitPlanRequest({ clusterId: 'c', program: { jarId: 'x.jar' }, parallelism: 0 })).toThrow(/^Resubmit plan request: `parallelism`/);
    expect(() => parseResubmitPlanRequest({ clusterId: 'c', program: { jarId: 'x.jar', programArgs: '--rate 10' } })).toThrow(/^Resubmit plan request: `program.programArgs`/);
  });

  it('reads a journal filter, absent or partial', () => {
    expect(parseJournalFilter(undefined)).toEqual({});
    expect(parseJournalFilter({ jobId: job, state: 'unknown', limit: 5 })).toEqual({ jobId: job, state: 'unknown', limit: 5 });
    expect(() => parseJournalFilter({ limit: 'all' })).toThrow(/Journal filter: `limit`/);
  });
});
