/** A job's shape (its vertices and their parallelism) across runs: what a resubmit would change. */

/** A vertex's parallelism in one run of a job, or in the plan of the next; matched across runs by id, else by name. */
export interface VertexShape {
  id: string;
  name: string;
  parallelism: number;
  /** null: not known (Flink's plan of a jar does not give it). */
  maxParallelism: number | null;
}

/** One way a run differs from the stopped one, in words ("tenant-cost: 32 → 4"). */
export interface ShapeChange {
  vertexName: string;
  kind: 'parallelism' | 'max-parallelism' | 'missing' | 'added';
  from: number | null;
  to: number | null;
  words: string;
}

/** What a resubmit would run (Flink's plan) beside what the stopped run ran. */
export interface ResubmitPlan {
  /** The vertices Flink will run, from `POST /jars/:jarid/plan` with the run's arguments. */
  planned: VertexShape[];
  /** The stopped run's vertices; null when the resubmit names no job (nothing to compare with). */
  stopped: VertexShape[] | null;
  /** How the plan differs from the stopped run; empty when it has the same shape (or there is nothing to compare). */
  changes: ShapeChange[];
  /** The job parallelism the run request names; null: none (the program's own and the cluster's default apply). */
  jobParallelism: number | null;
  /**
   * The run `stopped` is: the job the request named, or (a jar run from a savepoint) the job the journal took that
   * savepoint of. Absent in older plans; null when there is none.
   */
  stoppedJob?: { jobId: string; source: 'request' | 'savepoint' } | null;
  /** Flink's plan as it answered (`JobPlanInfo.plan`): the graph to draw. Absent in older plans. */
  graph?: { nodes: Array<{ id: string; description: string; parallelism: number; inputs: Array<{ id: string; ship_strategy?: string }> }> };
}
