import type { Finding, JobDiagnosis } from '../../../engine/contracts/diagnosis';

/** The vertex a finding marks on the graph: only one that calls for attention (a warning or worse). */
export function markedVertexOf(finding: Finding | null): string | null {
  return finding && (finding.severity === 'critical' || finding.severity === 'warning') ? finding.vertexId : null;
}

/** The subtask the skew view outlines: the finding's first named subtask. */
export function highlightOf(finding: Finding | null): { vertexId: string; subtask: number } | null {
  return finding?.vertexId && finding.subtasks.length > 0 ? { vertexId: finding.vertexId, subtask: finding.subtasks[0].subtask } : null;
}

/** The diagnosis' skew finding on a vertex (the headline or another one), or null: what the Advice panel starts from. */
export function skewFindingOf(diagnosis: JobDiagnosis | null): Finding | null {
  if (!diagnosis) return null;
  return [diagnosis.finding, ...diagnosis.otherFindings].find((f) => f.kind === 'skew' && f.vertexId !== null) ?? null;
}
