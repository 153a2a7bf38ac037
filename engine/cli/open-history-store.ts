import path from 'node:path';
import { HistoryStore } from '../history/history-store.ts';
import { appDataDir } from './data-dir.ts';

/**
 * The history store (samples, checkpoints, the journal) in `<data folder>/history`, shared with the app. Apart from
 * data-dir.ts so a command that only lists clusters or jobs does not load LMDB.
 */
export function openHistoryStore(dataDir?: string): HistoryStore {
  return HistoryStore.open(path.join(appDataDir(dataDir), 'history'));
}
