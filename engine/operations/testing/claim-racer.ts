/**
 * A child process for the journal's race test: opens the store, says `ready`, waits for the start signal (a file), claims the
 * entry given on the command line (held by the process `deadPid`, taken as killed), and prints `won` or `lost`.
 */
import { existsSync } from 'node:fs';
import { HistoryStore } from '../../history/history-store.ts';
import { OperationsJournal } from '../journal.ts';

const [dir, id, go, deadPid] = process.argv.slice(2);
const store = HistoryStore.open(dir);
// The entry's owner was "killed": every racer sees that process as gone, and the other racers as alive.
const journal = new OperationsJournal(store, { isAlive: (pid) => pid !== Number(deadPid) && pid > 0 });
process.stdout.write('ready\n');
while (!existsSync(go)) await new Promise((resolve) => setTimeout(resolve, 5));
const claimed = await journal.claim(id);
process.stdout.write(claimed ? `won ${journal.owner}\n` : 'lost\n');
await store.close();
