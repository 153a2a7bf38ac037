import { describe, expect, it } from 'vitest';
import type { Finding, JobDiagnosis } from '../../../engine/contracts/diagnosis';
import { skewFindingOf } from './finding';

const finding = (kind: Finding['kind'], vertexId: string | null): Finding =>
  ({ kind, severity: 'critical', sentence: kind, details: [], vertexId, vertexName: null, subtasks: [], metric: null, victims: [], suggestedParallelism: null }) as Finding;
const diagnosis = (headline: Finding, others: Finding[]) => ({ finding: headline, otherFindings: others }) as unknown as JobDiagnosis;

describe('skewFindingOf', () => {
  it('finds the skew finding on a vertex among the headline and the others', () => {
    expect(skewFindingOf(null)).toBeNull();
    expect(skewFindingOf(diagnosis(finding('skew', 'v'), []))?.vertexId).toBe('v');
    expect(skewFindingOf(diagnosis(finding('under-provisioned', 'v'), [finding('skew', 'w')]))?.vertexId).toBe('w');
    expect(skewFindingOf(diagnosis(finding('skew', null), []))).toBeNull();
  });
});
