import Conf from 'conf';
import { ClusterStore } from '../clusters/cluster-store.ts';

/**
 * The cluster list outside Electron. `conf` writes `~/.config/flink-ops-console/config.json`, the same file and
 * format electron-store uses for the desktop app (its userData folder is named after the package).
 */
export function openClusterStore(dataDir?: string): ClusterStore {
  const conf = new Conf<Record<string, unknown>>({
    projectName: 'flink-ops-console',
    projectSuffix: '',
    configName: 'config',
    ...(dataDir ? { cwd: dataDir } : {}),
  });
  return new ClusterStore(conf);
}
