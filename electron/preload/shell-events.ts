import type { ShellEvent } from '../../engine/contracts/shell-api.ts';

/**
 * The preload's end of the shell's events: it listens from the first moment, and keeps what arrives
 * before the page subscribes (a deep link while React mounts), handing it over on subscription.
 */
export function shellEventHub(): {
  receive(event: unknown): void;
  subscribe(listener: (event: ShellEvent) => void): () => void;
} {
  const listeners = new Set<(event: ShellEvent) => void>();
  let early: ShellEvent[] = [];
  return {
    receive(event) {
      if (!isShellEvent(event)) return;
      if (listeners.size === 0) early.push(event);
      for (const listener of listeners) listener(event);
    },
    subscribe(listener) {
      if (typeof listener !== 'function') return () => undefined;
      listeners.add(listener);
      const missed = early;
      early = [];
      for (const event of missed) listener(event);
      return () => void listeners.delete(listener);
    },
  };
}

/** Only the event shapes the contract names reach the page, as fresh plain objects. */
function isShellEvent(value: unknown): value is ShellEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as { type?: unknown; hash?: unknown };
  if (event.type === 'refresh-data' || event.type === 'show-shortcuts') return true;
  return event.type === 'open-link' && typeof event.hash === 'string';
}
