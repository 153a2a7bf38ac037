import type { ShellEvent } from '../../engine/contracts/shell-api.ts';

/** More would mean the page never loads; the oldest are dropped. */
const MAX_PENDING = 20;

/**
 * Holds the shell's events (menu commands, links) while the page loads, when the preload that would
 * receive them does not exist yet, and delivers them in order once it has loaded.
 */
export function shellEventQueue(deliver: (event: ShellEvent) => void): {
  send(event: ShellEvent): void;
  pageReady(): void;
  pageGone(): void;
} {
  let ready = false;
  let pending: ShellEvent[] = [];
  return {
    send(event) {
      if (ready) deliver(event);
      else pending = [...pending, event].slice(-MAX_PENDING);
    },
    pageReady() {
      ready = true;
      const queued = pending;
      pending = [];
      for (const event of queued) deliver(event);
    },
    pageGone() {
      ready = false;
    },
  };
}
