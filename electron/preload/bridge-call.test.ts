import { describe, expect, it } from 'vitest';
import { ENGINE_METHODS } from '../../engine/contracts/engine-api.ts';
import { refuseBridgeCall, transportFailure } from './bridge-call.ts';

describe('refuseBridgeCall', () => {
  it('lets every allow-listed method with an argument list cross', () => {
    for (const method of ENGINE_METHODS) expect(refuseBridgeCall(method, [])).toBeNull();
    expect(refuseBridgeCall('getJobGraph', ['c1', 'j1'])).toBeNull();
  });

  it('refuses methods outside the allow-list, including inherited names', () => {
    for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'getappinfo', '', 42, null, undefined, {}]) {
      const refusal = refuseBridgeCall(method, []);
      expect(refusal, String(method)).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    }
  });

  it('refuses arguments that are not a list', () => {
    for (const args of [undefined, null, 'c1', { 0: 'c1' }, 1]) {
      expect(refuseBridgeCall('listJobs', args)).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    }
  });
});

describe('transportFailure', () => {
  it('reports a failed crossing as an internal error naming the call', () => {
    const response = transportFailure('listJobs', new Error('An object could not be cloned.'));
    expect(response).toEqual({
      ok: false,
      error: { kind: 'internal', message: expect.stringContaining('"listJobs"') },
    });
  });
});
