import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../engine/contracts/diagnosis';
import { evidenceOf, subtaskColumn } from './evidence';

const finding: Finding = {
  kind: 'skew',
  severity: 'critical',
  sentence: '',
  details: [],
  vertexId: 'v1',
  vertexName: 'tenant-cost',
  subtasks: [{ subtask: 12, taskManagerId: 'tm', endpoint: null }],
  metric: 'busyTimeMsPerSecond',
  victims: [],
  suggestedParallelism: null,
};

describe('the evidence of a finding', () => {
  it('is its vertex, the subtasks table sorted by the proving metric, and the named subtask', () => {
    expect(evidenceOf(finding)).toEqual({ vertexId: 'v1', sort: 'busyTimeMsPerSecond', subtask: 12 });
    expect(evidenceOf({ ...finding, metric: 'recordsOutPerSecond', subtasks: [] })).toEqual({ vertexId: 'v1', sort: 'recordsOut' });
    expect(evidenceOf({ ...finding, vertexId: null })).toBeNull();
  });

  it('of a watermark held back by an idle split is that vertex\'s watermarks, on the Inspect tab', () => {
    expect(evidenceOf({ ...finding, kind: 'idle-source-split', metric: 'recordsOutPerSecond' })).toEqual({ vertexId: 'v1', tab: 'inspect' });
  });

  it('accepts only sort columns the table has', () => {
    expect(subtaskColumn('busyTimeMsPerSecond')).toBe('busyTimeMsPerSecond');
    expect(subtaskColumn('recordsIn')).toBe('recordsIn');
    expect(subtaskColumn('nonsense')).toBeNull();
    expect(subtaskColumn(undefined)).toBeNull();
  });
});
