/**
 * The page's keyboard shortcuts, as data (the sheet lists them) and a matcher for key sequences
 * like `g` `j`. Pure: the hook in useKeyboardShortcuts.ts feeds it key events.
 */
export type ShortcutAction = 'focus-job-filter' | 'go-to-jobs' | 'close-panel' | 'show-shortcuts';

export interface Shortcut {
  /** Keys pressed one after the other, as KeyboardEvent.key names them. */
  keys: readonly string[];
  action: ShortcutAction;
  description: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['/'], action: 'focus-job-filter', description: 'Filter the jobs' },
  { keys: ['g', 'j'], action: 'go-to-jobs', description: 'Go to the jobs list' },
  { keys: ['Escape'], action: 'close-panel', description: 'Close the open panel or sheet' },
  { keys: ['?'], action: 'show-shortcuts', description: 'Show these shortcuts' },
];

export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Focus is in a text field: keys are typing there, not commands. */
  inTextField: boolean;
  /** Event time, ms. */
  timeMs: number;
}

/** The second key of a sequence must follow within this time. */
export const SEQUENCE_TIMEOUT_MS = 1_500;

/** Returns a matcher that remembers a pending first key between calls. */
export function createShortcutMatcher(shortcuts: readonly Shortcut[] = SHORTCUTS): (input: KeyInput) => ShortcutAction | null {
  let pending: { key: string; atMs: number } | null = null;
  return (input) => {
    if (input.ctrlKey || input.metaKey || input.altKey || input.inTextField) {
      pending = null;
      return null;
    }
    const prefix = pending && input.timeMs - pending.atMs <= SEQUENCE_TIMEOUT_MS ? pending.key : null;
    pending = null;
    if (prefix) {
      const sequence = shortcuts.find((s) => s.keys.length === 2 && s.keys[0] === prefix && s.keys[1] === input.key);
      if (sequence) return sequence.action;
    }
    const single = shortcuts.find((s) => s.keys.length === 1 && s.keys[0] === input.key);
    if (single) return single.action;
    if (shortcuts.some((s) => s.keys.length === 2 && s.keys[0] === input.key)) pending = { key: input.key, atMs: input.timeMs };
    return null;
  };
}
