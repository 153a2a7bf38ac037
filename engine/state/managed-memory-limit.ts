import { bytesInWords } from '../analysis/in-words.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';

/** A size a subtask's state is projected to reach, and what it is. */
export interface StateLimit {
  bytes: number;
  source: string;
}

/**
 * The projection's limit when the operator sets none: a TaskManager's managed memory per slot, as Flink reports it
 * (`memoryConfiguration.managedMemory` of `/taskmanagers` over `slotsNumber`), the smallest of the cluster's: the
 * memory a subtask's RocksDB (or other managed) state gets before it reads from disk. Null when Flink reports none.
 */
export async function managedMemoryPerSlot(client: FlinkRestClient): Promise<StateLimit | null> {
  const { taskmanagers } = await client.request(endpoints.taskManagers, {});
  let tightest: { perSlot: number; managed: number; slots: number } | null = null;
  for (const tm of taskmanagers) {
    const managed = tm.memoryConfiguration?.managedMemory;
    if (managed === undefined || !(managed > 0) || !(tm.slotsNumber > 0)) continue;
    const perSlot = Math.floor(managed / tm.slotsNumber);
    if (!tightest || perSlot < tightest.perSlot) tightest = { perSlot, managed, slots: tm.slotsNumber };
  }
  if (!tightest) return null;
  return {
    bytes: tightest.perSlot,
    source: `a TaskManager's managed memory per slot: ${bytesInWords(tightest.managed)} over ${tightest.slots} slot${tightest.slots === 1 ? '' : 's'}`,
  };
}
