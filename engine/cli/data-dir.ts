import path from 'node:path';
import Conf from 'conf';
import { ClusterStore } from '../clusters/cluster-store.ts';
import { KafkaSettingsStore } from '../kafka/kafka-settings.ts';

/**
 * The cluster list outside Electron. `conf` writes `~/.config/flink-ops-console/config.json`, the same file and
 * format electron-store uses for the desktop app (its userData folder is named after the package).
 */
export function openClusterStore(dataDir?: string): ClusterStore {
  return new ClusterStore(openConfig(dataDir));
}

/** The app's data folder: `--data-dir`, else the one the desktop app uses (`~/.config/flink-ops-console`). */
export function appDataDir(dataDir?: string): string {
  return dataDir ? path.resolve(dataDir) : path.dirname(openConfig().path);
}

/** The clusters' Kafka settings, in the same file as the cluster list. */
export function openKafkaSettingsStore(dataDir?: string): KafkaSettingsStore {
  return new KafkaSettingsStore(openConfig(dataDir));
}

function openConfig(dataDir?: string): Conf<Record<string, unknown>> {
  return new Conf<Record<string, unknown>>({
    projectName: 'flink-ops-console',
    projectSuffix: '',
    configName: 'config',
    ...(dataDir ? { cwd: dataDir } : {}),
  });
}
