import { describe, expect, it } from 'vitest';
import { ManualClock } from '../time/clock.ts';
import { validateAgainstSpec } from '../rest-spec/validate-against-spec.ts';
import { flinkErrorBody, flinkErrorMessage } from '../rest-spec/flink-error.ts';
import { realBody } from '../checkpoint/testdata/shape.ts';
import { AsyncOperationRegistry, parseTriggerRequest, TriggerRequestError, type SerializedThrowableWire } from './async-operations.ts';

const JOB = 'ee33243ed702a032130139b8b1dcacb7';
const A = 'a'.repeat(32);
type Observed = Record<string, { status: number; body: unknown }>;
const real = realBody<Observed>('async-operations.json');

function setup() {
  const clock = new ManualClock(1_795_969_988_000);
  let n = 0;
  const registry = new AsyncOperationRegistry({ clock, newTriggerId: () => (++n).toString(16).padStart(32, '0') });
  return { clock, registry };
}

describe('trigger-then-poll', () => {
  it('savepoint: 202 { request-id } → IN_PROGRESS with operation null → COMPLETED { location }, as on real Flink 2.2.1', () => {
    const { registry } = setup();
    const t = registry.trigger('savepoint', JOB, A, { formatType: 'CANONICAL' });
    expect(t.isNew).toBe(true);
    expect(t.body).toEqual(real.triggerSavepointWithTriggerId.body);
    expect(validateAgainstSpec('POST', '/jobs/:jobid/savepoints', 202, t.body)).toEqual([]);
    const pending = registry.status('savepoint', JOB, A);
    expect(pending).toEqual({ status: 200, body: real.savepointInProgress.body });
    registry.complete('savepoint', JOB, A, { savepointLocation: 'file:/work/main/.cache/flink/2.2.1/savepoints/savepoint-ee3324-a4be710cc718' });
    const done = registry.status('savepoint', JOB, A);
    expect(done).toEqual({ status: 200, body: real.savepointCompleted.body });
    for (const r of [pending, done]) if (r.status === 200) expect(validateAgainstSpec('GET', '/jobs/:jobid/savepoints/:triggerid', 200, r.body)).toEqual([]);
  });

  it('checkpoint: COMPLETED { checkpointId } or { failureCause } (camelCase); savepoint failures use failure-cause', () => {
    const { registry } = setup();
    registry.trigger('checkpoint', JOB, A);
    registry.complete('checkpoint', JOB, A, { checkpointId: 6 });
    expect(registry.status('checkpoint', JOB, A)).toEqual({ status: 200, body: real.checkpointCompleted.body });
    const c2 = registry.trigger('checkpoint', JOB).operation.triggerId;
    registry.fail('checkpoint', JOB, c2, { className: 'java.util.concurrent.CompletionException', message: 'org.apache.flink.runtime.messages.FlinkJobNotFoundException: Could not find Flink job (9cc7ea0f3256fd828b84880e3b954ba2)' });
    const failed = registry.status('checkpoint', JOB, c2);
    if (failed.status !== 200) throw new Error('expected 200');
    const op = failed.body.operation as { failureCause: SerializedThrowableWire };
    expect(Object.keys(op)).toEqual(['failureCause']);
    expect(Object.keys(op.failureCause)).toEqual(['class', 'stack-trace', 'serialized-throwable']);
    expect(op.failureCause['stack-trace']).toMatch(/^java\.util\.concurrent\.CompletionException: org\.apache\.flink\.runtime\.messages\.FlinkJobNotFoundException/);
    expect(validateAgainstSpec('GET', '/jobs/:jobid/checkpoints/:triggerid', 200, failed.body)).toEqual([]);

    const s = registry.trigger('savepoint', JOB).operation.triggerId;
    registry.fail('savepoint', JOB, s, new Error('Savepoint failed: job is not running'));
    const sf = registry.status('savepoint', JOB, s);
    if (sf.status !== 200) throw new Error('expected 200');
    expect(Object.keys(sf.body.operation!)).toEqual(Object.keys((real.savepointFailed.body as { operation: object }).operation));
    expect(sf.body.status.id).toBe('COMPLETED');
  });

  it('the same triggerId is the same operation (idempotent retries); stop with a savepoint\'s ID returns the savepoint', () => {
    const { registry } = setup();
    expect(registry.trigger('savepoint', JOB, A).isNew).toBe(true);
    expect(registry.trigger('savepoint', JOB, A).isNew).toBe(false);
    const stop = registry.trigger('stop', JOB, A, { drain: true });
    expect(stop.isNew).toBe(false);
    expect(stop.operation.kind).toBe('savepoint');
    expect(stop.body).toEqual({ 'request-id': A });
    // Checkpoints have their own cache: the same ID starts a checkpoint.
    expect(registry.trigger('checkpoint', JOB, A).isNew).toBe(true);
    // Another job, another key.
    expect(registry.trigger('savepoint', 'f'.repeat(32), A).isNew).toBe(true);
  });

  it('results are kept rest.async.store-duration after completion, then 404; in-progress never expires', () => {
    const { clock, registry } = setup();
    registry.trigger('savepoint', JOB, A);
    clock.advanceBy(3_600_000);
    expect(registry.status('savepoint', JOB, A).status).toBe(200);
    registry.complete('savepoint', JOB, A, { savepointLocation: 'file:/sp' });
    clock.advanceBy(299_999);
    expect(registry.status('savepoint', JOB, A).status).toBe(200);
    clock.advanceBy(1);
    expect(registry.status('savepoint', JOB, A)).toEqual({ status: 404, message: `There is no savepoint operation with triggerId=${A} for job ${JOB}.` });
    expect(registry.trigger('savepoint', JOB, A).isNew, 'an expired ID may be reused').toBe(true);
  });

  it('unknown trigger IDs: Flink\'s 404 messages and error body', () => {
    const { registry } = setup();
    const zero = '0'.repeat(32);
    const sp = registry.status('savepoint', JOB, zero);
    const cp = registry.status('checkpoint', JOB, zero);
    if (sp.status !== 404 || cp.status !== 404) throw new Error('expected 404');
    const realSp = (real.unknownSavepointTrigger.body as { errors: string[] }).errors[0];
    const realCp = (real.unknownCheckpointTrigger.body as { errors: string[] }).errors[0];
    expect(flinkErrorBody(sp.message).errors[0]).toBe(realSp.split('\n')[0]);
    expect(flinkErrorBody(cp.message).errors[0]).toBe(realCp.split('\n')[0]);
    expect(flinkErrorMessage(realSp)).toBe(sp.message);
    expect(registry.status('rescaling', JOB, zero)).toMatchObject({ status: 404, message: expect.stringMatching(/^Operation not found under key: org\.apache\.flink\..*AsynchronousJobOperationKey@[0-9a-f]+$/) });
  });

  it('completing twice or an unknown operation is a programming error', () => {
    const { registry } = setup();
    registry.trigger('rescaling', JOB, A);
    registry.complete('rescaling', JOB, A, {});
    expect(registry.status('rescaling', JOB, A)).toEqual({ status: 200, body: { status: { id: 'COMPLETED' }, operation: {} } });
    expect(() => registry.complete('rescaling', JOB, A, {})).toThrow(/already completed/);
    expect(() => registry.fail('savepoint', JOB, A, new Error('x'))).toThrow(/No savepoint operation/);
    expect(registry.pending(JOB)).toEqual([]);
  });
});

describe('trigger request bodies', () => {
  it('accepts the documented fields, rejects unknown fields and bad trigger IDs with Flink\'s 400 message', () => {
    expect(parseTriggerRequest('stop', { drain: true, targetDirectory: '/sp', triggerId: A, formatType: null })).toEqual({ drain: true, targetDirectory: '/sp', triggerId: A });
    expect(parseTriggerRequest('savepoint', undefined)).toEqual({});
    expect(parseTriggerRequest('checkpoint', { checkpointType: 'FULL' })).toEqual({ checkpointType: 'FULL' });
    expect(() => parseTriggerRequest('savepoint', { triggerId: 'xyz' })).toThrow(new TriggerRequestError('Request did not match expected format SavepointTriggerRequestBody. (triggerId must be 32 lower-case hex characters)'));
    expect(() => parseTriggerRequest('stop', { 'target-directory': '/sp' })).toThrow(/StopWithSavepointRequestBody. \(unknown field "target-directory"/);
    const { registry } = setup();
    expect(() => registry.trigger('savepoint', JOB, 'XYZ')).toThrow(TriggerRequestError);
  });
});
