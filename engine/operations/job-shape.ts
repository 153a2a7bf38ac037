import type { ShapeChange, VertexShape } from '../contracts/job-shape.ts';
import type { endpoints, ResponseOf } from '../flink-rest/endpoints.ts';

type JobDetailsInfo = ResponseOf<typeof endpoints.jobDetails>;
type JobPlan = ResponseOf<typeof endpoints.jobPlan>['plan'];

/**
 * A job's shape (each vertex's parallelism and max parallelism) and how two shapes differ: the stopped run against
 * Flink's plan of the resubmit, and against the job it started. Pure.
 *
 * Vertices are matched by id (Flink derives it from the head operator's uid, or from the graph when there is none,
 * so the same program keeps it), else by name.
 */

/** The vertices of a run, as `GET /jobs/:jobid` shows them. */
export function shapeOfJob(details: Pick<JobDetailsInfo, 'maxParallelism' | 'vertices'>): VertexShape[] {
  return details.vertices.map((v) => ({ id: v.id, name: v.name, parallelism: v.parallelism, maxParallelism: v.maxParallelism ?? details.maxParallelism ?? null }));
}

/** The vertices of a plan (`POST /jars/:jarid/plan`): Flink gives no names and no max parallelism there. */
export function shapeOfPlan(plan: JobPlan): VertexShape[] {
  return plan.nodes.map((n) => ({ id: n.id, name: nameFromDescription(n.description ?? '') || n.id, parallelism: n.parallelism ?? 1, maxParallelism: null }));
}

/**
 * A vertex name from its plan description, as Flink names a chain (`Source: events -> parse`): the description is
 * the chain as an HTML tree ("Source: events<br/>+- parse<br/>"). Operators with their own description (windows)
 * differ from their name, so this is only the fallback for a vertex whose id changed.
 */
export function nameFromDescription(description: string): string {
  return description
    .split(/<br\/?>|\n/)
    .map((line) => unescapeHtml(line.replace(/^[\s:|]*[+:]- /, '')).trim())
    .filter((line) => line !== '')
    .join(' -> ');
}

function unescapeHtml(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

/** The `after` vertex each `before` vertex became: by id, else by a name only one vertex on each side has. */
export function matchVertices(before: VertexShape[], after: VertexShape[]): Map<VertexShape, VertexShape | undefined> {
  const afterById = new Map(after.map((v) => [v.id, v]));
  const taken = new Set<VertexShape>();
  const matched = new Map<VertexShape, VertexShape | undefined>();
  for (const v of before) {
    const same = afterById.get(v.id);
    if (same) taken.add(same);
    matched.set(v, same);
  }
  const uniqueByName = (list: VertexShape[]) => {
    const counts = new Map<string, number>();
    for (const v of list) counts.set(v.name, (counts.get(v.name) ?? 0) + 1);
    return new Map(list.filter((v) => counts.get(v.name) === 1).map((v) => [v.name, v]));
  };
  const beforeNames = uniqueByName(before);
  const afterNames = uniqueByName(after.filter((v) => !taken.has(v)));
  for (const v of before) {
    if (matched.get(v) || beforeNames.get(v.name) !== v) continue;
    const named = afterNames.get(v.name);
    if (named) {
      matched.set(v, named);
      taken.add(named);
    }
  }
  return matched;
}

/**
 * How `after` differs from `before`, vertex by vertex, in `before`'s order, then the vertices only `after` has.
 * A max parallelism unknown on either side is not compared.
 */
export function compareShapes(before: VertexShape[], after: VertexShape[]): ShapeChange[] {
  const changes: ShapeChange[] = [];
  const matched = matchVertices(before, after);
  for (const [v, next] of matched) {
    if (!next) {
      changes.push({ vertexName: v.name, kind: 'missing', from: v.parallelism, to: null, words: `${v.name}: not in the new job (it ran at parallelism ${v.parallelism})` });
      continue;
    }
    if (next.parallelism !== v.parallelism) {
      changes.push({ vertexName: v.name, kind: 'parallelism', from: v.parallelism, to: next.parallelism, words: `${v.name}: ${v.parallelism} → ${next.parallelism}` });
    }
    if (v.maxParallelism !== null && next.maxParallelism !== null && v.maxParallelism !== next.maxParallelism) {
      changes.push({
        vertexName: v.name,
        kind: 'max-parallelism',
        from: v.maxParallelism,
        to: next.maxParallelism,
        words: `${v.name}: max parallelism ${v.maxParallelism} → ${next.maxParallelism}`,
      });
    }
  }
  const reached = new Set(matched.values());
  for (const v of after) {
    if (!reached.has(v)) changes.push({ vertexName: v.name, kind: 'added', from: null, to: v.parallelism, words: `${v.name}: new in this job, at parallelism ${v.parallelism}` });
  }
  return changes;
}

/** The changes in one sentence, for a CLI line, a journal progress or a confirmation. */
export function describeChanges(changes: ShapeChange[]): string {
  return changes.length === 0 ? 'Same shape as the stopped run: every vertex at its parallelism and max parallelism.' : `Differs from the stopped run: ${changes.map((c) => c.words).join('; ')}.`;
}
