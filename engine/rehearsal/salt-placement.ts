import type { SaltPlacement } from '../contracts/rehearsal.ts';
import { expectedDistinctSubtasks, placeStringKey, saltedKeyName, DEFAULT_SALT_FORMAT } from '../analysis/salting-advice.ts';

/**
 * Where the salted job puts the hot key's buckets (`K#0` … `K#N-1`, the salted job's format) at stage A's parallelism,
 * and what it means: salted keys are hashed, so some share a subtask (8 keys over 32 subtasks reach about 7), and the
 * subtask that takes two buckets carries twice a bucket's load. Pure.
 */
export function placeSaltedKeys(key: string, buckets: number, maxParallelism: number, parallelism: number): SaltPlacement {
  const saltedKeys = Array.from({ length: buckets }, (_, i) => {
    const salted = saltedKeyName(DEFAULT_SALT_FORMAT, key, i);
    return { key: salted, ...placeStringKey(salted, maxParallelism, parallelism) };
  });
  const bySubtask = new Map<number, string[]>();
  for (const k of saltedKeys) bySubtask.set(k.subtask, [...(bySubtask.get(k.subtask) ?? []), k.key]);
  const collisions = [...bySubtask.entries()].filter(([, keys]) => keys.length > 1).map(([subtask, keys]) => ({ subtask, keys })).sort((a, b) => a.subtask - b.subtask);
  const distinct = bySubtask.size;
  const expected = expectedDistinctSubtasks(buckets, parallelism);
  const reach = `${buckets} salted keys of ${key} over ${parallelism} subtasks reach ${distinct} (about ${expected.toFixed(1)} expected at random)`;
  const widest = Math.max(...[...bySubtask.values()].map((keys) => keys.length));
  const sentence = collisions.length
    ? `${reach}: salted keys collide — ${collisions.map((c) => `${c.keys.join(' and ')} on subtask ${c.subtask}`).join('; ')} — so the spread is not even: that subtask carries ${widest} buckets' load.`
    : `${reach}: none collide at parallelism ${parallelism} this time, but salted keys collide more often than not (they are hashed, not spread evenly): another parallelism, key or bucket count can put two on one subtask.`;
  return { key, saltedKeys, distinctSubtasks: distinct, expectedDistinctSubtasks: expected, collisions, sentence };
}
