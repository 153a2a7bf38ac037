import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root.ts';
import type { Command } from 'commander';
import { appVersion } from '../app/build-identity.ts';
import { createEngine } from '../app/create-engine.ts';
import { startWebServer } from '../app/web-server.ts';
import { MemorySecretStore } from '../clusters/secret-store.ts';
import type { EngineApi } from '../contracts/engine-api.ts';
import { BUNDLE_RETENTION, importBundle, type IncidentBundle } from '../exports/incident-bundle.ts';
import { attachmentsAskedOf, exportSkewReport } from '../exports/job-exports.ts';
import { HistoryStore } from '../history/history-store.ts';
import { CliError, EXIT } from './cli-error.ts';
import { openClusterStore, openKafkaSettingsStore } from './data-dir.ts';
import { readBundle } from './report-command.ts';
import { printable, printableLines } from './terminal-text.ts';

const ROOT = PROJECT_ROOT;

/**
 * A cluster address that never answers (port 1 on loopback refuses at once): the console opened on a bundle must show
 * the recording, never whatever now runs at the address the bundle was saved from.
 */
export const BUNDLE_CLUSTER_URL = 'http://127.0.0.1:1';

/**
 * `flink-ops open-bundle FILE`: the console in web mode on an incident bundle, without the cluster. The bundle is
 * imported into a history store in a temporary data folder, beside a cluster entry named after the bundle and its
 * time; the job page shows it as a recording (the app's own view of a job it recorded), every tab from the history.
 */
export function registerOpenBundleCommand(program: Command): void {
  program
    .command('open-bundle')
    .description('Open an incident bundle in the console (web mode), without the cluster')
    .argument('<file>', 'the .flinkops-bundle file')
    .option('--port <port>', 'web mode port (0 = any free port)', '0')
    .action(async (file: string, options: { port: string }) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(EXIT.badArguments, `--port must be 0-65535, not "${options.port}".`);
      const bundle = readBundle(file);
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-open-bundle-'));
      const history = HistoryStore.open(path.join(dataDir, 'history'), { retention: BUNDLE_RETENTION });
      try {
        await importBundle(history, bundle);
      } catch (error) {
        await history.close();
        rmSync(dataDir, { recursive: true, force: true });
        throw error;
      }
      const clusterStore = openClusterStore(dataDir);
      clusterStore.save({ id: bundle.cluster.id, name: bundleClusterName(bundle), url: BUNDLE_CLUSTER_URL, auth: { kind: 'none' }, timeoutMs: 2000 });
      const engine = createEngine({
        clusterStore,
        kafkaSettings: openKafkaSettingsStore(dataDir),
        secretStore: new MemorySecretStore(),
        history,
        mode: 'web',
        version: appVersion(),
      });
      // What would ask the cluster is answered from the bundle: the exceptions as the cluster gave them when it was
      // saved, and reports that name the bundle's cluster (not the stand-in entry that keeps the page a recording).
      const ours = (clusterId: string, jobId: string) => clusterId === bundle.cluster.id && jobId === bundle.jobId;
      const bundled: EngineApi = {
        ...engine,
        jobs: overriding(engine.jobs, {
          exceptions: async (clusterId, jobId) => (ours(clusterId, jobId) && bundle.exceptions ? bundle.exceptions : engine.jobs.exceptions(clusterId, jobId)),
        }),
        exports: overriding(engine.exports, {
          // The bundle's attachments, where the report asks for them: the cluster is not asked.
          skewReport: async (clusterId, jobId, request) =>
            ours(clusterId, jobId) ? exportSkewReport(history, bundle.cluster, jobId, request, async () => attachmentsAskedOf(bundle.attachments, request)) : engine.exports.skewReport(clusterId, jobId, request),
        }),
      };
      const server = await startWebServer({ engine: bundled, staticDir: path.join(ROOT, 'renderer/dist'), port });
      const jobPage = `${server.url}#/clusters/${encodeURIComponent(bundle.cluster.id)}/jobs/${bundle.jobId}`;
      process.stdout.write(
        printableLines([
          `Incident bundle ${file}: ${printable(bundle.report.job.name)} (${bundle.jobId}) as of ${bundle.report.asOf ?? 'no samples'}, ${bundle.samples.length} samples, ${bundle.checkpoints.length} checkpoints.`,
          `Flink Ops Console (web mode, recording only): ${jobPage}`,
        ].join('\n') + '\n'),
      );
      await new Promise<void>((resolve) => {
        const stop = () =>
          void Promise.all([server.close(), engine.close()]).then(async () => {
            await history.close();
            rmSync(dataDir, { recursive: true, force: true });
            resolve();
          });
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}

/** What the cluster list shows: that it is a bundle, of which cluster, and the time it holds. */
export function bundleClusterName(bundle: IncidentBundle): string {
  const at = bundle.report.asOf ? bundle.report.asOf.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : 'no samples';
  return `Incident bundle: ${bundle.cluster.name ?? bundle.cluster.url ?? bundle.cluster.id}, recorded until ${at}`;
}

/** A service with some of its calls answered otherwise; the rest still go to the service itself. */
function overriding<Api extends object>(service: Api, overrides: Partial<Api>): Api {
  return Object.assign(Object.create(service) as Api, overrides);
}
