/**
 * A child process for the crash test: appends samples t = 1, 2, 3, ... to the store given on the command line and
 * prints each t once its transaction has committed, until it is killed.
 */
import { HistoryStore } from '../history-store.ts';
import { syntheticSample } from './sample-fixtures.ts';

const [dir, parallelism] = process.argv.slice(2);
const store = HistoryStore.open(dir, { retention: { sampleMaxAgeMs: Number.MAX_SAFE_INTEGER } });
const start = (store.samples.latest('c1', 'a'.repeat(32))?.t ?? 0) + 1;
for (let t = start; ; t++) {
  await store.samples.append(syntheticSample({ t, vertices: 4, parallelism: Number(parallelism) }));
  process.stdout.write(`${t}\n`);
}
