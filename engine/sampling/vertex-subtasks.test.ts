import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../flink-rest/endpoints.ts';
import { toVertexSubtasks } from './vertex-subtasks.ts';

const VERTEX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/flink/recorded/2.2.1/vertices/0-source-events-parse');
const read = (file: string): unknown => JSON.parse(readFileSync(path.join(VERTEX, file), 'utf8'));

describe('toVertexSubtasks: busy, back-pressured and idle time only for RUNNING subtasks', () => {
  const details = endpoints.vertexDetails.response.parse(read('vertex-detail.json'));
  const backPressure = endpoints.vertexBackPressure.response.parse(read('backpressure.json'));
  const watermarks = endpoints.vertexWatermarks.response.parse(read('watermarks.json'));

  it('a running vertex has them', () => {
    const table = toVertexSubtasks('c', 'j', details, backPressure, watermarks);
    expect(table.backpressureLevel).toBe('high');
    for (const row of table.subtasks) expect(row.busyTimeMsPerSecond).not.toBeNull();
  });

  it('a failed subtask keeps its totals but has no "now" figures; a vertex with none running has no level', () => {
    const failed = { ...details, subtasks: details.subtasks.map((s) => ({ ...s, status: 'CANCELED' })) };
    const table = toVertexSubtasks('c', 'j', failed, backPressure, watermarks);
    expect(table.backpressureLevel).toBeNull();
    for (const row of table.subtasks) {
      expect(row).toMatchObject({ busyTimeMsPerSecond: null, backPressuredTimeMsPerSecond: null, idleTimeMsPerSecond: null, backpressureLevel: null });
      expect(row.recordsOut).toBeGreaterThan(0);
    }
  });
});
