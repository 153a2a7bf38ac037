import { describe, expect, it } from 'vitest';
import type { Finding, JobDiagnosis } from '../../../engine/contracts/diagnosis';
import { formatBusy, formatRatio, formatRecords, skewFindingOf, spreadSentence } from './adviceFormat';

describe('the Advice panel formatting', () => {
  it('writes the figures as the service gives them, a dash when there is none', () => {
    expect(formatRatio(23.4)).toBe('23.40×');
    expect(formatRatio(null)).toBe('—');
    expect(formatBusy(999.6)).toBe('1,000 ms/s');
    expect(formatBusy(Number.NaN)).toBe('—');
    expect(formatRecords(400.4)).toBe('400 records/s');
    expect(formatRecords(12.54)).toBe('12.5 records/s');
  });

  it('says how many distinct subtasks the salted keys reach beside what random placement gives', () => {
    expect(spreadSentence(8, 32, 7, 7.1234)).toBe('8 salted keys over 32 subtasks: 7 distinct subtasks (about 7.1 expected at random).');
    expect(spreadSentence(1, 4, 1, null)).toBe('1 salted key over 4 subtasks: 1 distinct subtask.');
    expect(spreadSentence(3, 4, null, null)).toBe('3 salted keys over 4 subtasks: how many distinct subtasks is not known.');
  });

  it('finds the skew finding among the headline and the others', () => {
    const finding = (kind: Finding['kind'], vertexId: string | null): Finding =>
      ({ kind, severity: 'critical', sentence: kind, details: [], vertexId, vertexName: null, subtasks: [], metric: null, victims: [], suggestedParallelism: null }) as Finding;
    const diagnosis = (f: Finding, others: Finding[]) => ({ finding: f, otherFindings: others }) as unknown as JobDiagnosis;
    expect(skewFindingOf(null)).toBeNull();
    expect(skewFindingOf(diagnosis(finding('under-provisioned', 'v'), [finding('skew', 'w')]))?.vertexId).toBe('w');
    expect(skewFindingOf(diagnosis(finding('skew', null), []))).toBeNull();
  });
});
