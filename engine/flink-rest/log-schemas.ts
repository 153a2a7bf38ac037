import { z } from 'zod';
import { count, timestamp } from './schemas.ts';

/**
 * Logs and thread dumps, as Flink's `LogListInfo` and `ThreadDumpInfo` write them (checked on 2.3.0 and 1.20.3).
 * `mtime` is newer than the list itself: an older cluster's list may have none.
 */

/** `GET /jobmanager/logs`, `GET /taskmanagers/:id/logs`: the files of the process's log directory. */
export const LogListInfo = z.object({
  logs: z.array(z.object({ name: z.string().min(1), size: count, mtime: timestamp.optional() })),
});

/**
 * `GET /jobmanager/thread-dump`, `GET /taskmanagers/:id/thread-dump`: one entry per live thread, its stack as
 * `JvmUtils.stringifyThreadInfo` writes it (`"name" Id=42 RUNNABLE` then `\tat frame` lines).
 */
export const ThreadDumpInfo = z.object({
  threadInfos: z.array(z.object({ threadName: z.string(), stringifiedThreadInfo: z.string() })),
});
