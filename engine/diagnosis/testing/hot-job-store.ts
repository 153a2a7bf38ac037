import { buildWindow, uniform } from '../../analysis/testing/window-builder.ts';
import { HistoryStore } from '../../history/history-store.ts';

/** 13 samples (2 min at 10 s) of source → keyed (8, subtask 3 hot) → sink, in a fresh store. */
export async function storeWithHotJob(dir: string): Promise<{ store: HistoryStore; t0: number }> {
  const keyed = uniform(8, { busy: 20, recordsIn: 20 });
  keyed[3] = { busy: 1000, recordsIn: 250 };
  const samples = buildWindow({
    samples: 13,
    vertices: [
      { id: 'a'.repeat(32), name: 'Source: s', subtasks: uniform(2, { bp: 900, recordsOut: 100 }) },
      { id: 'b'.repeat(32), name: 'keyed', subtasks: keyed },
      { id: 'c'.repeat(32), name: 'Sink: out', subtasks: uniform(2, { busy: 10, recordsIn: 100 }) },
    ],
    edges: [
      ['a'.repeat(32), 'b'.repeat(32), 'HASH'],
      ['b'.repeat(32), 'c'.repeat(32), 'FORWARD'],
    ],
  });
  const store = HistoryStore.open(dir, { now: () => samples[samples.length - 1].t });
  for (const sample of samples) await store.samples.append(sample);
  return { store, t0: samples[0].t };
}
