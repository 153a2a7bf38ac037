import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../flink-rest/endpoints.ts';
import { parseFlinkVersion } from '../flink-rest/version.ts';
import { toJobGraph } from './job-graph.ts';
import { toVertexSubtasks } from './vertex-subtasks.ts';

/**
 * Real responses recorded from Flink 2.3.0, 2.2.1 and 1.20.3 (e2e/flink/recorded, by e2e/flink/flink.sh):
 * the parsers must read every version the console supports, renamed fields included.
 */
const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/flink/recorded');
const versions = existsSync(RECORDED) ? readdirSync(RECORDED) : [];

describe.each(versions)('responses recorded from Flink %s', (version) => {
  const dir = path.join(RECORDED, version);
  const read = (file: string): unknown => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  const parse = <R>(spec: { response: { parse(v: unknown): R } }, file: string): R => spec.response.parse(read(file));

  it('validate against the console\'s endpoint schemas', () => {
    expect(parse(endpoints.config, 'config.json')['flink-version']).toBe(version);
    expect(parse(endpoints.overview, 'overview.json').taskmanagers).toBe(2);
    expect(parse(endpoints.jobManagerConfig, 'jobmanager-config.json').length).toBeGreaterThan(5);
    expect(parse(endpoints.jobsOverview, 'jobs-overview.json').jobs.length).toBeGreaterThan(0);
    expect(parse(endpoints.jobPlan, 'job-plan.json').plan.nodes.length).toBe(3);
    expect(parse(endpoints.subtaskMetricsAggregated, 'subtasks-metrics-skew.json').some((m) => m.skew !== undefined)).toBe(true);
  });

  it('read the fields 2.3 added (application, scheduler, job type, assigned tasks), absent before 2.3', () => {
    const details = parse(endpoints.jobDetails, 'job-detail.json');
    const [job] = parse(endpoints.jobsOverview, 'jobs-overview.json').jobs;
    const [taskManager] = parse(endpoints.taskManagers, 'taskmanagers.json').taskmanagers;
    const { major, minor } = parseFlinkVersion(version)!;
    const since23 = major > 2 || (major === 2 && minor >= 3);
    // A job of `POST /jars/:jarid/run` is a single-job application whose id is the job's.
    expect(details['application-id']).toBe(since23 ? details.jid : undefined);
    expect(details.schedulerType).toBe(since23 ? 'Adaptive' : undefined);
    expect(job.jobType).toBe(since23 ? 'STREAMING' : undefined);
    expect(job.schedulerType).toBe(since23 ? 'Adaptive' : undefined);
    expect(taskManager.assignedTasks).toEqual(since23 ? expect.any(Number) : undefined);
    // Older than 2.3, but read alike: `job-type` on the job's details (1.20+), the vertices' slot sharing group.
    expect(details['job-type']).toBe('STREAMING');
    expect(details.vertices.every((v) => typeof v.slotSharingGroupId === 'string')).toBe(true);
  });

  it('build the job graph: vertices, the plan\'s HASH edges and backpressure levels', () => {
    const details = parse(endpoints.jobDetails, 'job-detail.json');
    const vertexDirs = readdirSync(path.join(dir, 'vertices')).sort();
    const metrics = vertexDirs.map((v) => parse(endpoints.subtaskMetricsAggregated, `vertices/${v}/subtasks-metrics.json`));
    const graph = toJobGraph('c', details, metrics);
    expect(graph.vertices.map((v) => v.name)).toEqual(['Source: events -> parse', 'throttle', 'tenant-cost -> sink: Writer']);
    expect(graph.edges.map((e) => e.shipStrategy)).toEqual(['HASH', 'HASH']);
    const source = graph.vertices[0];
    expect(source.busyTimeMsPerSecond!.max).toBeGreaterThanOrEqual(source.busyTimeMsPerSecond!.avg);
    expect(source.backpressureLevel).toBe('high');
    expect(source.recordsOutPerSecond).toBeGreaterThan(0);
  });

  it('build the subtasks table, reading `endpoint` or `host`', () => {
    const vertexDir = readdirSync(path.join(dir, 'vertices')).sort()[0];
    const at = (f: string) => `vertices/${vertexDir}/${f}`;
    const table = toVertexSubtasks(
      'c',
      'j',
      parse(endpoints.vertexDetails, at('vertex-detail.json')),
      parse(endpoints.vertexBackPressure, at('backpressure.json')),
      parse(endpoints.vertexWatermarks, at('watermarks.json')),
    );
    expect(table.subtasks).toHaveLength(2);
    for (const row of table.subtasks) {
      expect(row.endpoint).toBeTruthy();
      expect(row.recordsOut).toBeGreaterThan(0);
      expect(row.busyTimeMsPerSecond! + row.backPressuredTimeMsPerSecond! + row.idleTimeMsPerSecond!).toBeGreaterThan(900);
    }
  });
});

it('has recordings of both supported major versions', () => {
  expect(versions.some((v) => v.startsWith('2.'))).toBe(true);
  expect(versions.some((v) => v.startsWith('1.'))).toBe(true);
});
