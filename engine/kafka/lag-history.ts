import type { LagPoint } from '../contracts/engine-api.ts';

/**
 * Where the lag trend of a consumer group is kept: one point per lag query, read back as a time window for the chart.
 *
 * TODO(history store): the durable history store (engine/history/, LMDB) replaces {@link MemoryLagHistory} when it
 * lands on main: implement this interface on it so the trend survives an app restart; nothing else changes.
 */
export interface LagHistory {
  /** Records one snapshot of a group's lag on a cluster. */
  append(clusterId: string, groupId: string, point: LagPoint): void;
  /** The points with `fromMs <= at <= toMs`, oldest first. */
  read(clusterId: string, groupId: string, fromMs: number, toMs: number): LagPoint[];
}

/** The in-memory lag history: a bounded series per (cluster, group), gone when the app stops. */
export class MemoryLagHistory implements LagHistory {
  private readonly series = new Map<string, LagPoint[]>();

  /** @param maxPoints points kept per group (a point every 10 s: a day ≈ 8,640). */
  constructor(private readonly maxPoints = 10_000) {}

  append(clusterId: string, groupId: string, point: LagPoint): void {
    const key = `${clusterId}\u0000${groupId}`;
    let points = this.series.get(key);
    if (!points) this.series.set(key, (points = []));
    // Out-of-order answers (two polls racing) still leave the series sorted.
    let i = points.length;
    while (i > 0 && points[i - 1].at > point.at) i--;
    points.splice(i, 0, point);
    if (points.length > this.maxPoints) points.splice(0, points.length - this.maxPoints);
  }

  read(clusterId: string, groupId: string, fromMs: number, toMs: number): LagPoint[] {
    return (this.series.get(`${clusterId}\u0000${groupId}`) ?? []).filter((p) => p.at >= fromMs && p.at <= toMs);
  }

  /** Forgets a cluster's series (the cluster was removed). */
  forgetCluster(clusterId: string): void {
    for (const key of [...this.series.keys()]) if (key.startsWith(`${clusterId}\u0000`)) this.series.delete(key);
  }
}
