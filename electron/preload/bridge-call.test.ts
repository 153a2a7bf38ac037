import { describe, expect, it } from 'vitest';
import { ENGINE_CALL_NAMES } from '../../engine/contracts/check-engine-call.ts';
import { SHELL_METHODS } from '../../engine/contracts/shell-api.ts';
import { refuseEngineCall, refuseShellCall, transportFailure } from './bridge-call.ts';

describe('refuseEngineCall', () => {
  it('lets a call of the table with the arguments its spec wants cross', () => {
    expect(refuseEngineCall('app.info', [])).toBeNull();
    expect(refuseEngineCall('jobs.graph', ['c1', 'j1'])).toBeNull();
    expect(refuseEngineCall('history.checkpoints', ['c1', 'j1'])).toBeNull();
  });

  it('refuses calls outside the table, including inherited names', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'jobs.__proto__', 'jobs.hasOwnProperty', 'getAppInfo', 'App.info', '', 42, null, undefined, {}]) {
      expect(refuseEngineCall(name, []), String(name)).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringContaining('Unknown engine call') } });
    }
    expect(ENGINE_CALL_NAMES).toContain('jobs.graph');
  });

  it('refuses arguments that are not a list, or not what the spec wants, naming the call and the argument', () => {
    for (const args of [undefined, null, 'c1', { 0: 'c1' }, 1]) {
      expect(refuseEngineCall('jobs.list', args)).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: 'The arguments of "jobs.list" must be a list.' } });
    }
    expect(refuseEngineCall('jobs.list', [7])).toMatchObject({ error: { message: '"jobs.list", argument clusterId: expected string, received number.' } });
  });
});

describe('refuseShellCall', () => {
  it('lets the shell\'s methods with an argument list cross, and refuses the rest', () => {
    for (const method of SHELL_METHODS) expect(refuseShellCall(method, [], SHELL_METHODS)).toBeNull();
    for (const method of ['constructor', 'notify ', 'jobs.list', 42]) {
      expect(refuseShellCall(method, [], SHELL_METHODS), String(method)).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    }
    expect(refuseShellCall('notify', 'x', SHELL_METHODS)).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
  });
});

describe('transportFailure', () => {
  it('reports a failed crossing as an internal error naming the call', () => {
    const response = transportFailure('jobs.list', new Error('An object could not be cloned.'));
    expect(response).toEqual({
      ok: false,
      error: { kind: 'internal', message: expect.stringContaining('"jobs.list"') },
    });
  });
});
