/**
 * Another client of the JobManager, polling as Flink's own Web UI does on a job's graph (every 3 s: the job, and per
 * vertex its aggregated subtask metrics and its backpressure). The JobManager refreshes its metrics lazily, on
 * whichever request comes more than `metrics.fetcher.update-interval` after the last fetch: with this poller running
 * the refreshes fall on its schedule, not the console's — as on a production cluster where people have the Web UI open.
 */
export interface WebUiPoller {
  /** Requests sent so far (a test can check it really polled). */
  readonly requests: () => number;
  stop(): Promise<void>;
}

export function startWebUiPoller(restUrl: string, jobId: string, intervalMs = 3_000): WebUiPoller {
  let requests = 0;
  let stopped = false;
  const get = async (path: string): Promise<unknown> => {
    requests++;
    const response = await fetch(`${restUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
    return response.ok ? response.json() : undefined;
  };
  const poll = async (): Promise<void> => {
    const job = (await get(`/jobs/${jobId}`)) as { vertices?: Array<{ id: string }> } | undefined;
    await Promise.all(
      (job?.vertices ?? []).flatMap((v) => [
        get(`/jobs/${jobId}/vertices/${v.id}/subtasks/metrics?get=busyTimeMsPerSecond,backPressuredTimeMsPerSecond&agg=max,avg`),
        get(`/jobs/${jobId}/vertices/${v.id}/backpressure`),
      ]),
    );
  };
  // The Web UI asks as soon as the page opens, then every interval.
  let running: Promise<void> = poll().catch(() => undefined);
  const timer = setInterval(() => {
    if (stopped) return;
    // One poll at a time, as the Web UI's interval does; a failed one is just missed (the cluster may be restarting).
    running = running.then(() => poll().catch(() => undefined));
  }, intervalMs);
  return {
    requests: () => requests,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
