import { describe, expect, it } from 'vitest';
import type { SubtaskRow } from '../contracts/jobs.ts';
import { subtaskMetricsCsv } from './subtask-metrics.ts';

const row = (index: number, patch: Partial<SubtaskRow> = {}): SubtaskRow => ({
  index,
  attempt: 0,
  status: 'RUNNING',
  endpoint: '127.0.0.1:40123',
  taskManagerId: 'tm-1',
  recordsIn: 100,
  recordsOut: 90,
  bytesIn: 1000,
  bytesOut: 900,
  clockMs: null,
  busyTimeMsPerSecond: 500,
  backPressuredTimeMsPerSecond: 0,
  idleTimeMsPerSecond: 500,
  backpressureLevel: 'ok',
  watermark: Date.UTC(2026, 10, 30, 3, 12),
  ...patch,
});

describe('subtaskMetricsCsv', () => {
  it('writes one row per subtask, vertices in order and subtasks by index', () => {
    const csv = subtaskMetricsCsv([
      { vertexId: 'v1', name: 'Source: events', subtasks: [row(1), row(0)] },
      { vertexId: 'v2', name: 'tenant-cost, "hot"', subtasks: [row(0, { busyTimeMsPerSecond: 1000, backpressureLevel: null, watermark: null, recordsIn: null })] },
    ]);
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe(
      'vertex_id,vertex_name,subtask,attempt,status,endpoint,taskmanager_id,records_in,records_out,bytes_in,bytes_out,busy_ms_per_s,backpressured_ms_per_s,idle_ms_per_s,backpressure_level,watermark',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1].startsWith('v1,Source: events,0,')).toBe(true);
    expect(lines[2].startsWith('v1,Source: events,1,')).toBe(true);
    expect(lines[1]).toContain(',2026-11-30T03:12:00.000Z');
    // Quoted name, empty cells for what the cluster did not report.
    expect(lines[3]).toBe('v2,"tenant-cost, ""hot""",0,0,RUNNING,127.0.0.1:40123,tm-1,,90,1000,900,1000,0,500,,');
  });
});
