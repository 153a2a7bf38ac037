import type { JournalEntry, OperationKind, OperationState } from '../../../engine/contracts/operations';

/** Pure helpers of the Operations area: words, tones and input parsing, shared by its components and tested alone. */

export const KIND_LABEL: Record<OperationKind, string> = {
  savepoint: 'Savepoint',
  stop: 'Stop with savepoint',
  cancel: 'Cancel',
  rescale: 'Rescale',
  resubmit: 'Resubmit',
  'cancel-application': 'Cancel application',
  'dispose-savepoint': 'Dispose savepoint',
};

export const STATE_LABEL: Record<OperationState, string> = {
  pending: 'sending',
  'in-progress': 'in progress',
  succeeded: 'succeeded',
  failed: 'failed',
  'not-started': 'not started',
  unknown: 'outcome unknown',
};

/** The badge tone of a state (the StateBadge palette). */
export function stateTone(state: OperationState): string {
  return { pending: 'pending', 'in-progress': 'pending', succeeded: 'running', failed: 'failed', 'not-started': 'neutral', unknown: 'warning' }[state];
}

export function isOpen(entry: Pick<JournalEntry, 'state'>): boolean {
  return entry.state === 'pending' || entry.state === 'in-progress';
}

/** What drain does, in one line (shown beside the checkbox and in the confirmation). */
export const DRAIN_EXPLANATION =
  'Drain advances the watermark to the end and fires every event-time window before the job stops: use it only when the job will not be resumed from this savepoint.';

/** A fresh trigger id for one intent (one confirmation dialog): a double click or a retry reuses it. */
export function newTriggerId(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  return Array.from(random(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Program arguments as typed in one line: split on spaces, quotes keep spaces together ("a b" or 'a b'). */
export function splitArguments(line: string): string[] {
  const out: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = pattern.exec(line); m; m = pattern.exec(line)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

export function joinArguments(args: string[]): string {
  return args.map((a) => (a === '' || /\s|"/.test(a) ? `'${a}'` : a)).join(' ');
}

/** Hot keys as typed, one per line: `acme 400` or `acme=400` (records per second). Errors name the line. */
export function parseHotKeys(text: string): { keys: Array<{ key: string; recordsPerSecond: number }>; errors: string[] } {
  const keys: Array<{ key: string; recordsPerSecond: number }> = [];
  const errors: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const match = /^(.+?)\s*[=\s]\s*([0-9]+(?:\.[0-9]+)?)$/.exec(line);
    if (!match) {
      errors.push(`Line ${i + 1} ("${line}"): write the key, then its records per second, e.g. acme 400.`);
      return;
    }
    keys.push({ key: match[1].trim(), recordsPerSecond: Number(match[2]) });
  });
  return { keys, errors };
}

/** The one line of an entry's outcome or progress, for tables and status lines. */
export function summary(entry: JournalEntry): string {
  if (entry.state === 'succeeded') {
    if (entry.resultPath && entry.newJobId) return `Savepoint ${entry.resultPath}; now runs as job ${entry.newJobId}.`;
    if (entry.resultPath) return entry.progress ? `${entry.resultPath} — ${entry.progress}` : entry.resultPath;
    if (entry.newJobId) return `Runs as job ${entry.newJobId}.`;
    return 'Done.';
  }
  return entry.failure ?? entry.progress ?? STATE_LABEL[entry.state];
}
