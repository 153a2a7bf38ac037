import type { Server } from 'node:http';
import { LocalEngine, LocalEngineError, type LocalEngineOptions } from './engine.ts';
import { RealTimeDriver } from './realtime-driver.ts';
import { createRestApp, listen } from './rest/server.ts';

export interface StartLocalEngineOptions extends LocalEngineOptions {
  /** REST port on 127.0.0.1; 0 picks a free one. @default 8081 */
  port?: number;
  /**
   * `real` (default): virtual time follows the wall clock. `manual`: time moves only when the caller runs
   * `handle.engine.advance(ms)` (tests: deterministic and fast).
   */
  time?: 'real' | 'manual';
  /**
   * Every request must carry `Authorization: Bearer <token>` (the engine the app starts always has one). Without it
   * the engine still refuses web pages, foreign Host headers and non-JSON writes.
   */
  token?: string;
}

export interface LocalEngineHandle {
  /** `http://127.0.0.1:<port>`: attach the console here, as to any Flink cluster. */
  url: string;
  port: number;
  engine: LocalEngine;
  /** Stops serving and stops the engine; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the local engine: validates the options, builds the cluster and its job, serves Flink's REST API v1 on
 * 127.0.0.1, and (in real time) runs the job. Any invalid option, or a port in use, rejects with a clear message
 * and leaves nothing running.
 */
export async function startLocalEngine(options: StartLocalEngineOptions = {}): Promise<LocalEngineHandle> {
  const port = options.port ?? 8081;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${options.port}.`);
  if (options.token !== undefined && !/^[\x21-\x7e]{16,512}$/.test(options.token)) {
    throw new LocalEngineError('--token must be 16 to 512 printable characters without spaces.');
  }
  const time = options.time ?? 'real';
  const engine = new LocalEngine({ measureCpu: time === 'real', ...options, restPort: port });
  const app = createRestApp(engine, { token: options.token });
  let server: Server;
  let actualPort: number;
  try {
    ({ server, port: actualPort } = await listen(app, port));
  } catch (error) {
    for (const job of engine.cluster.jobs.values()) job.cancel();
    await engine.options.kafka?.close();
    throw error;
  }
  // With a manual clock the caller runs the engine synchronously between requests, often for longer than the
  // keep-alive timeout: an idle-socket timer firing as the loop resumes would reset a connection the client is reusing.
  if (time === 'manual') server.keepAliveTimeout = 0;
  const portEntry = engine.configuration.find((e) => e.key === 'rest.port');
  if (portEntry) portEntry.value = String(actualPort);
  // With a fixed start time, virtual time runs at the wall clock's pace from that origin, not at the wall clock.
  const wallAtStart = Date.now();
  const startTime = engine.now();
  const pace = options.startTime !== undefined ? { now: () => startTime + (Date.now() - wallAtStart) } : {};
  const driver = time === 'real' ? new RealTimeDriver(engine, pace) : undefined;
  driver?.start();
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    engine,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        driver?.stop();
        for (const job of engine.cluster.jobs.values()) job.cancel();
        server.closeAllConnections?.();
        server.close(() => {
          // Kafka consumers leave their group and producers send what is left before the engine is gone.
          void (engine.options.kafka?.close() ?? Promise.resolve()).then(() => resolve());
        });
      });
      return closed;
    },
  };
}
