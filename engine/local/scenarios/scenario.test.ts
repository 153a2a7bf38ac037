import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listScenarios, loadScenario, parseScenario, resolveScenario } from './scenario.ts';
import { parseDurationMs, parseMemorySize } from './units.ts';

describe('scenario files', () => {
  it('ships hot-tenant, loaded with its capacity model and the 30 s shift', () => {
    expect(listScenarios()).toContain('hot-tenant');
    const s = loadScenario('hot-tenant');
    expect(s.capacity['tenant-cost']).toEqual({ maxRecordsPerSecond: 250, costPerRecordMs: 1 });
    expect(s.traffic.phases).toEqual([{ atMs: 30_000, share: { acme: 0.4 }, tenants: undefined }]);
    expect(s.configuration['taskmanager.memory.segment-size']).toBe('4kb');
  });

  it('rejects unknown names and bad files with messages that name the field', () => {
    expect(() => loadScenario('nope')).toThrow(/Unknown scenario "nope". Known scenarios: .*hot-tenant/);
    expect(() => loadScenario('../etc/passwd')).toThrow(/Unknown scenario/);
    const base = 'name: x\ntraffic:\n  rate: 10\n  tenants: {a: 1}\n  models: {m: 1}\n';
    expect(parseScenario(base, 'x.yaml').traffic.rate).toBe(10);
    expect(() => parseScenario(`${base}parallelism: 0\n`, 'x.yaml')).toThrow(/`parallelism`/);
    expect(() => parseScenario(`${base}colour: blue\n`, 'x.yaml')).toThrow(/colour/);
    expect(() => parseScenario(base.replace('rate: 10', 'rate: -1'), 'x.yaml')).toThrow(/`traffic.rate`/);
    expect(() => parseScenario(`${base}  phases:\n    - at: soon\n      share: {a: 0.5}\n`, 'x.yaml')).toThrow(/phases.0.at` should be a duration/);
    expect(() => parseScenario('name: [', 'x.yaml')).toThrow(/not valid YAML/);
  });

  it('reads the failed-logins job\'s `logins` section, and only for that job', () => {
    const logins = 'logins:\n  state: counter\n  ttl: 90s\n  rate: 50\n  users: unbounded\n  failureRate: 0.5\n';
    const scenario = parseScenario(`name: x\njob: failed-logins\n${logins}`, 'x.yaml');
    expect(scenario.logins).toEqual({ state: 'counter', ttlMs: 90_000, traffic: { rate: 50, users: 'unbounded', failureRate: 0.5 } });
    expect(() => parseScenario('name: x\njob: failed-logins\n', 'x.yaml')).toThrow(/`logins` is required for the failed-logins job/);
    expect(() => parseScenario(`name: x\ntraffic:\n  rate: 10\n  tenants: {a: 1}\n  models: {m: 1}\n${logins}`, 'x.yaml')).toThrow(/`logins` is for the failed-logins job only/);
    expect(() => parseScenario('name: x\n', 'x.yaml')).toThrow(/`traffic` is required for the gatewaymeter job/);
    expect(() => parseScenario(`name: x\njob: failed-logins\n${logins.replace('counter', 'bag')}`, 'x.yaml')).toThrow(/`logins.state`/);
  });

  it('loads a scenario by name or from a file of the same format', () => {
    expect(resolveScenario('hot-tenant').name).toBe('hot-tenant');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'scenario-'));
    try {
      const file = path.join(dir, 'rehearsal.yml');
      writeFileSync(file, 'name: rehearsal\ntraffic:\n  rate: 10\n  tenants: {a: 1}\n  models: {m: 1}\n  phases:\n    - at: 10s\n      share: {a: 0.9}\n');
      expect(resolveScenario(file)).toMatchObject({ name: 'rehearsal', traffic: { rate: 10, phases: [{ atMs: 10_000 }] } });
      expect(() => resolveScenario(path.join(dir, 'missing.yaml'))).toThrow(/Cannot read the scenario file .*missing\.yaml \(ENOENT\): pass a scenario name \(.*hot-tenant/);
      writeFileSync(file, 'name: rehearsal\n');
      expect(() => resolveScenario(file)).toThrow(/Scenario rehearsal\.yml: `traffic`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parses Flink-style durations and memory sizes', () => {
    expect(parseDurationMs('30s', 'x')).toBe(30_000);
    expect(parseDurationMs('100 ms', 'x')).toBe(100);
    expect(parseDurationMs('2 min', 'x')).toBe(120_000);
    expect(parseDurationMs(250, 'x')).toBe(250);
    expect(parseMemorySize('4kb', 'x')).toBe(4096);
    expect(parseMemorySize('32 kb', 'x')).toBe(32_768);
    expect(() => parseMemorySize('lots', 'segment-size')).toThrow(/segment-size should be a memory size/);
  });
});
