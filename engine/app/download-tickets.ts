import { randomBytes } from 'node:crypto';

/** A ticket lives this long: the page follows it at once. */
export const DOWNLOAD_TICKET_TTL_MS = 60_000;
/** Tickets not yet used at once; the oldest goes first. */
const MAX_TICKETS = 32;

/**
 * One-use links for a browser's download in web mode: a navigation cannot carry the launch token in a header, so the
 * page asks for a ticket with it (a token-guarded POST) and follows the ticket's URL. A ticket is 24 random bytes, good
 * once, for DOWNLOAD_TICKET_TTL_MS: who has no token gets none, and a link copied from the page opens nothing later.
 */
export class DownloadTickets<T> {
  private readonly tickets = new Map<string, { value: T; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(value: T): string {
    this.dropExpired();
    while (this.tickets.size >= MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value!);
    const ticket = randomBytes(24).toString('base64url');
    this.tickets.set(ticket, { value, expiresAt: this.now() + DOWNLOAD_TICKET_TTL_MS });
    return ticket;
  }

  /** The ticket's value, once; undefined for an unknown, used or expired ticket. */
  take(ticket: string): T | undefined {
    const entry = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    return entry && entry.expiresAt > this.now() ? entry.value : undefined;
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [ticket, entry] of this.tickets) if (entry.expiresAt <= now) this.tickets.delete(ticket);
  }
}
