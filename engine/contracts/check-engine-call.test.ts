import { describe, expect, it } from 'vitest';
import { checkEngineCall, ENGINE_CALL_NAMES } from './check-engine-call.ts';
import { ENGINE_CALLS, type EngineCallName, type EngineService } from './engine-api.ts';

const JOB = 'a'.repeat(32);
const TRIGGER = 'b'.repeat(32);

/** One well-formed argument list per call: the table below does not compile when a call is added without one. */
const VALID: Record<EngineCallName, unknown[]> = {
  'app.info': [],
  'clusters.list': [],
  'clusters.check': [{ name: 'prod', url: 'http://127.0.0.1:8081', auth: { kind: 'none' } }],
  'clusters.save': [{ id: 'c1', name: 'prod', url: 'https://jm:8081', auth: { kind: 'basic', username: 'ops', password: 'pw' }, caFile: '/ca.pem', timeoutMs: 5000 }],
  'clusters.remove': ['c1'],
  'clusters.overview': ['c1'],
  'clusters.taskManagers': ['c1'],
  'clusters.killTaskManager': ['local', 'tm-1'],
  'jobs.list': ['c1'],
  'jobs.graph': ['c1', JOB],
  'jobs.plan': ['c1', JOB],
  'jobs.subtasks': ['c1', JOB, JOB],
  'jobs.exceptions': ['c1', JOB],
  'jobs.rescales': ['c1', JOB],
  'inspect.configuration': ['c1', JOB],
  'inspect.vertex': ['c1', JOB, JOB],
  'inspect.flameGraph': ['c1', JOB, JOB, { type: 'on-cpu', subtask: 3 }],
  'inspect.process': ['c1', 'jobmanager'],
  'logs.list': ['c1', 'jobmanager'],
  'logs.read': ['c1', 'jobmanager', { file: { kind: 'log' }, offset: null, length: 4096 }],
  'logs.search': ['c1', 'jobmanager', { file: { kind: 'file', name: 'a.log' }, text: 'x', task: null }],
  'logs.threadDump': ['c1', 'jobmanager'],
  'profiler.profiles': ['c1', 'jobmanager'],
  'profiler.start': ['c1', 'jobmanager', { mode: 'ITIMER', durationSeconds: 10 }],
  'profiler.open': ['c1', 'jobmanager', 'jobmanager_ITIMER_2026-12-02_16_38_15.html'],
  'applications.list': ['c1'],
  'applications.application': ['c1', JOB],
  'applications.exceptions': ['c1', JOB],
  'applications.applicationOfJob': ['c1', JOB],
  'history.watches': [],
  'history.setPinned': ['c1', JOB, true],
  'history.checkpoints': ['c1', JOB, 60],
  'history.checkpointDetail': ['c1', JOB, 7, 1_700_000_000_000],
  'history.metrics': ['c1', JOB, 60_000, 1_700_000_000_000],
  'history.processMetrics': ['c1', 'jobmanager', 900_000, 1_700_000_000_000],
  'history.recordedJobs': ['c1'],
  'history.recordedJob': ['c1', JOB],
  'diagnosis.diagnose': ['c1', JOB, 60_000],
  'diagnosis.skewHeatmap': ['c1', JOB, 60_000, 'busyTimeMsPerSecond', 'max'],
  'diagnosis.locateKey': [{ key: 'acme', keyType: 'string', maxParallelism: 128, parallelism: 4, rescaleTo: [8] }],
  'diagnosis.keyGroupRanges': [128, 4],
  'operations.context': ['c1', JOB],
  'operations.start': [{ kind: 'stop', clusterId: 'c1', jobId: JOB, triggerId: TRIGGER, drain: false, format: 'canonical' }],
  'operations.journalEntry': [TRIGGER],
  'operations.journal': [{ clusterId: 'c1', kind: 'savepoint', limit: 10 }],
  'operations.exportJournal': [{}, 'csv'],
  'operations.planRescale': ['c1', JOB, { parallelism: { [JOB]: 4 }, hotKeys: [{ key: 'acme', recordsPerSecond: 400 }] }],
  'operations.planResubmit': [{ clusterId: 'c1', jobId: JOB, program: { jarId: 'x.jar', programArgs: ['--rate', '10'] }, parallelism: 2 }],
  'operations.rescaleOutcome': [TRIGGER],
  'operations.beforeAfter': [TRIGGER],
  'operations.savepoints': ['c1', JOB],
  'jars.list': ['c1'],
  'jars.upload': ['c1', { fileName: 'job.jar', contentBase64: 'UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==' }],
  'jars.delete': ['c1', '0b8e3f2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b_job.jar'],
  'operations.disposalImpact': ['c1', 'file:/tmp/savepoints/savepoint-1a2b3c-0123456789ab'],
  'exports.subtaskMetrics': ['c1', JOB],
  'exports.skewReport': ['c1', JOB, { windowMs: 60_000, format: 'html' }],
  'exports.incidentBundle': ['c1', JOB, { windowMs: 60_000 }],
  'kafka.settings': ['c1'],
  'kafka.saveSettings': ['c1', { bootstrapServers: '127.0.0.1:9092', tls: false, sasl: { mechanism: 'scram-sha-256', username: 'u', password: 'p' } }],
  'kafka.removeSettings': ['c1'],
  'kafka.source': ['c1', JOB],
  'kafka.consumerLag': ['c1', { groupId: 'g', topics: ['orders'], jobId: JOB }],
  'kafka.lagHistory': ['c1', 'g', 0],
  'kafka.sampleHotKeys': ['c1', { topic: 'orders', keyPath: 'tenant_id', seconds: 60, keyedVertex: { maxParallelism: 128, parallelism: 4 } }],
  'state.jobState': ['c1', JOB, 600_000, { capacityBytes: 1e9 }],
  'advice.advise': ['c1', JOB, { key: 'acme', format: '{key}#{i}' }],
  'rehearsal.rehearse': ['c1', JOB, { key: 'acme', salt: 8 }],
  'rehearsal.cancel': ['c1', JOB],
};

function specOf(name: EngineCallName) {
  const [service, method] = name.split('.') as [EngineService, string];
  return (ENGINE_CALLS[service] as Record<string, { args: readonly { name: string; optional: boolean }[] }>)[method];
}

/** A value of another JSON type than the one given. */
const wrongType = (valid: unknown): unknown => (typeof valid === 'string' ? 42 : 'not-this');

describe('the engine call table at the edge', () => {
  it('has a well-formed example for every call, and passes it through unchanged', () => {
    expect(Object.keys(VALID).sort()).toEqual([...ENGINE_CALL_NAMES].sort());
    for (const name of ENGINE_CALL_NAMES) {
      expect(checkEngineCall(name, VALID[name]), name).toEqual({ ok: true, service: name.split('.')[0], method: name.split('.')[1], args: VALID[name] });
    }
  });

  it('refuses every call with an argument of the wrong type, naming the call and the argument', () => {
    for (const name of ENGINE_CALL_NAMES) {
      specOf(name).args.forEach((argument, i) => {
        const args = [...VALID[name]];
        args[i] = wrongType(args[i]);
        const checked = checkEngineCall(name, args);
        expect(checked, `${name} ${argument.name}`).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
        if (!checked.ok) expect(checked.error.message, name).toMatch(new RegExp(`^"${name.replace('.', '\\.')}", argument ${argument.name}: `));
      });
    }
  });

  it('refuses every call with a required argument missing, naming it', () => {
    for (const name of ENGINE_CALL_NAMES) {
      specOf(name).args.forEach((argument, i) => {
        if (argument.optional) return;
        const checked = checkEngineCall(name, VALID[name].slice(0, i));
        expect(checked, name).toEqual({ ok: false, error: { kind: 'invalid-input', message: `"${name}" is missing its argument ${argument.name}.` } });
      });
    }
  });

  it('refuses every call with an argument too many, saying what it takes', () => {
    for (const name of ENGINE_CALL_NAMES) {
      const checked = checkEngineCall(name, [...VALID[name], 'extra']);
      expect(checked, name).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringMatching(new RegExp(`^"${name.replace('.', '\\.')}" takes (no arguments|\\d+ arguments? \\(.*\\)), not ${VALID[name].length + 1}\\.$`)) } });
    }
  });

  it('leaves optional arguments out, or takes null for them as JSON carries a missing one', () => {
    expect(checkEngineCall('history.checkpoints', ['c1', JOB])).toMatchObject({ ok: true, args: ['c1', JOB] });
    expect(checkEngineCall('history.checkpoints', ['c1', JOB, null])).toMatchObject({ ok: true, args: ['c1', JOB] });
    expect(checkEngineCall('history.metrics', ['c1', JOB, 60_000, null])).toMatchObject({ ok: true, args: ['c1', JOB, 60_000] });
    expect(checkEngineCall('operations.journal', [])).toMatchObject({ ok: true, args: [] });
    expect(checkEngineCall('jobs.graph', ['c1', null])).toMatchObject({ ok: false, error: { message: '"jobs.graph", argument jobId: expected string, received null.' } });
  });

  it('names the field inside an argument that is wrong, and drops fields the contract does not know', () => {
    expect(checkEngineCall('clusters.save', [{ name: 'p', url: 'http://x', auth: { kind: 'oauth' } }])).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^"clusters\.save", argument input: `auth\.kind` /) },
    });
    expect(checkEngineCall('operations.start', [{ kind: 'savepoint', clusterId: 'c1', jobId: 'nope', triggerId: TRIGGER }])).toMatchObject({
      ok: false,
      error: { message: '"operations.start", argument request: `jobId` must be 32 lower-case hex characters.' },
    });
    expect(checkEngineCall('diagnosis.skewHeatmap', ['c1', JOB, 60_000, 'cpu', 'max'])).toMatchObject({ ok: false, error: { message: expect.stringContaining('argument metric: Invalid option') } });
    const stripped = checkEngineCall('clusters.check', [{ name: 'p', url: 'http://x', auth: { kind: 'none' }, isAdmin: true }]);
    expect(stripped).toMatchObject({ ok: true, args: [{ name: 'p', url: 'http://x', auth: { kind: 'none' } }] });
    expect(stripped.ok && (stripped.args[0] as object)).not.toHaveProperty('isAdmin');
  });

  it('refuses names outside the table, own properties only', () => {
    for (const name of ['jobs', 'jobs.', '.graph', 'jobs.graph.x', 'jobs.toString', 'toString.call', '__proto__.x', 'getJobGraph', 'Jobs.graph', 7, null, ['jobs.graph']]) {
      expect(checkEngineCall(name, []), String(name)).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringContaining('Unknown engine call') } });
    }
  });
});
