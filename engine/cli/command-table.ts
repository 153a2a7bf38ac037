import type { Command } from 'commander';

/** Adds a module's commands (with their options and actions) to the program. */
export type RegisterCommands = (program: Command) => void;

/** One command of `flink-ops` as its help lists it, and the module that defines it, loaded only when it runs. */
export interface CommandEntry {
  name: string;
  /** How the help lists it: the name, `[options]`, its arguments. */
  term: string;
  description: string;
  load(): Promise<RegisterCommands>;
}

// The loaders are the only imports of the command modules: `--help` and each command load nothing else (the local
// engine, Kafka, LMDB, the web server and the reports cost hundreds of modules). A command's description is its
// module's too; command-table.test.ts keeps the two the same.
const clusterCommands = () => import('./cluster-commands.ts').then((m) => m.registerClusterCommands);
const operationCommands = () => import('./operation-commands.ts').then((m) => m.registerOperationCommands);
const reportCommands = () => import('./report-command.ts').then((m) => m.registerReportCommands);
const jarCommands = () => import('./jar-commands.ts').then((m) => m.registerJarCommands);
const kafkaCommands = () => import('./kafka-commands.ts').then((m) => m.registerKafkaCommands);
const logsCommands = () => import('./logs-command.ts').then((m) => m.registerLogsCommands);

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'clusters', term: 'clusters [options]', description: 'List the clusters saved in the app', load: clusterCommands },
  { name: 'jobs', term: 'jobs [options]', description: 'List the jobs of a cluster', load: clusterCommands },
  { name: 'graph', term: 'graph [options]', description: "Show a job's graph: vertices, parallelism, busy and backpressure", load: clusterCommands },
  { name: 'exceptions', term: 'exceptions [options]', description: "Show a job's exception history: why it failed or restarted, newest first", load: clusterCommands },
  {
    name: 'applications',
    term: 'applications [options]',
    description: 'List the applications of a cluster (Flink 2.3+): state, jobs by state, times',
    load: () => import('./application-commands.ts').then((m) => m.registerApplicationCommands),
  },
  {
    name: 'app',
    term: 'app [options]',
    description: 'Start the console: Electron when its binary is installed, else web mode on 127.0.0.1',
    load: () => import('./app-command.ts').then((m) => m.registerAppCommand),
  },
  {
    name: 'engine',
    term: 'engine [options]',
    description: "Run the local engine: a Flink-like runtime with the GatewayMeter job, serving Flink's REST API on 127.0.0.1. Without --scenario: a uniform traffic mix and no capacity limits.",
    load: () => import('./engine-command.ts').then((m) => m.registerEngineCommand),
  },
  {
    name: 'engine-kill-tm',
    term: 'engine-kill-tm [options]',
    description: 'Kill a TaskManager of a local engine (engine only): its jobs fail over as on Flink.',
    load: () => import('../local/cli/engine-kill-tm-command.ts').then((m) => m.registerEngineKillTmCommand),
  },
  { name: 'lag', term: 'lag [options]', description: 'Consumer lag of a group: committed offset, log-end offset and lag per partition (Flink commits on checkpoints).', load: kafkaCommands },
  { name: 'hot-keys', term: 'hot-keys [options]', description: "Sample a topic's recent records (no group joined, nothing committed) and show its hottest keys.", load: kafkaCommands },
  {
    name: 'produce',
    term: 'produce [options]',
    description: "Produce GatewayMeter events to a Kafka topic at a rate with a scenario's tenant mix (keyed by request_id).",
    load: () => import('../local/cli/produce-command.ts').then((m) => m.registerProduceCommand),
  },
  {
    name: 'checkpoints',
    term: 'checkpoints [options]',
    description: "Show a job's checkpoints: summary, the last N, and the subtasks that stood out",
    load: () => import('./checkpoints-command.ts').then((m) => m.registerCheckpointsCommand),
  },
  {
    name: 'config',
    term: 'config [options]',
    description: "Show the JobManager's configuration and environment, and a job's configuration, user parameters and checkpoint configuration",
    load: () => import('./config-command.ts').then((m) => m.registerConfigCommand),
  },
  {
    name: 'flamegraph',
    term: 'flamegraph [options]',
    description: "Sample a vertex's (or one subtask's) threads as Flink does and show where the time goes: hot frames, the heaviest stack, or folded stacks",
    load: () => import('./flamegraph-command.ts').then((m) => m.registerFlameGraphCommand),
  },
  {
    name: 'profile',
    term: 'profile [options]',
    description: "Profile the JobManager or a TaskManager with Flink's profiler (async-profiler, 1.19+): start one and show where its time went, list them, or open one",
    load: () => import('./profile-command.ts').then((m) => m.registerProfileCommand),
  },
  {
    name: 'diagnose',
    term: 'diagnose [options]',
    description: 'Why is a job slow: the backpressure root cause, per-subtask skew and hot subtasks over a window',
    load: () => import('./diagnose-command.ts').then((m) => m.registerDiagnoseCommand),
  },
  {
    name: 'state',
    term: 'state [options]',
    description: "Where a job's state lives, how fast it grows, and the likeliest reason why",
    load: () => import('./state-command.ts').then((m) => m.registerStateCommand),
  },
  {
    name: 'advise',
    term: 'advise [options]',
    description: 'For a hot key: salting (how many buckets, where the salted keys land, busy after) beside a rescale',
    load: () => import('./advise-command.ts').then((m) => m.registerAdviseCommand),
  },
  { name: 'logs', term: 'logs [options]', description: 'Show the log of the JobManager or a TaskManager: its files, the last lines, a search, follow', load: logsCommands },
  { name: 'thread-dump', term: 'thread-dump [options]', description: 'Take a thread dump of the JobManager or a TaskManager, grouped by state, task threads marked', load: logsCommands },
  {
    name: 'rehearse',
    term: 'rehearse [options]',
    description: "Rehearse a fix on the local engine: the job's observed key mix on its current shape, then salted (--salt N) or rescaled (--parallelism P)",
    load: () => import('./rehearse-command.ts').then((m) => m.registerRehearseCommand),
  },
  { name: 'savepoint', term: 'savepoint [options]', description: 'Take a savepoint of a running job; prints its path', load: operationCommands },
  { name: 'stop', term: 'stop [options]', description: 'Stop a job with a savepoint; prints the savepoint path', load: operationCommands },
  { name: 'cancel', term: 'cancel [options]', description: 'Cancel a job (no savepoint: state since the last checkpoint is lost)', load: operationCommands },
  {
    name: 'cancel-application',
    term: 'cancel-application [options]',
    description: 'Cancel an application (Flink 2.3+) and with it every job of it (no savepoint: their state since the last checkpoint is lost)',
    load: operationCommands,
  },
  {
    name: 'rescale',
    term: 'rescale [options] [programArgs...]',
    description: "Change a job's parallelism (adaptive scheduler: in place; else stop with a savepoint and resubmit); prints the job id that runs at it",
    load: operationCommands,
  },
  { name: 'resubmit', term: 'resubmit [options] [programArgs...]', description: 'Run a job from a savepoint through an uploaded jar; prints the new job id', load: operationCommands },
  {
    name: 'jars',
    term: 'jars',
    description: 'The jars of a cluster: list, upload, delete, plan, and run one from a savepoint (journaled as a resubmit)',
    load: jarCommands,
  },
  {
    name: 'dispose-savepoint',
    term: 'dispose-savepoint [options] <path>',
    description: 'Dispose a savepoint (POST /savepoint-disposal): its files are deleted, then the console forgets it',
    load: jarCommands,
  },
  { name: 'journal', term: 'journal [options]', description: 'The operations journal (shared with the app): what was done, when, and how it ended', load: operationCommands },
  { name: 'report', term: 'report [options]', description: 'A skew report of a job over a window: per-subtask and per-vertex figures, the root cause, checkpoints', load: reportCommands },
  { name: 'bundle', term: 'bundle [options]', description: 'Save an incident bundle of a job: its samples over the window, checkpoints, exceptions, journal entries, graph and report', load: reportCommands },
  {
    name: 'open-bundle',
    term: 'open-bundle [options] <file>',
    description: 'Open an incident bundle in the console (web mode), without the cluster',
    load: () => import('./open-bundle-command.ts').then((m) => m.registerOpenBundleCommand),
  },
];

export function commandNamed(name: string | undefined): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
