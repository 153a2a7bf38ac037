/**
 * A cluster's request slots, shared by what a page shows now and what the background sampler collects: a page's
 * request is sent before any background request still waiting, and background requests never take the last slot. A
 * page of a 200 × 4,096 job then refreshes in its own time, not after the sampler's 400 requests of megabytes each.
 */
export type RequestPriority = 'page' | 'background';

export class PriorityLimit {
  private active = 0;
  private activeBackground = 0;
  private readonly waiting: Record<RequestPriority, Array<() => void>> = { page: [], background: [] };

  constructor(private readonly slots: number) {
    if (!(slots >= 1)) throw new Error(`A request limit needs at least one slot, not ${slots}.`);
  }

  /** Requests in flight and waiting, by priority (tests and diagnostics). */
  get pending(): { active: number; page: number; background: number } {
    return { active: this.active, page: this.waiting.page.length, background: this.waiting.background.length };
  }

  async run<T>(priority: RequestPriority, task: () => Promise<T>): Promise<T> {
    if (this.canStart(priority)) this.take(priority);
    // A waiter is woken with its slot already taken (see next), so one release never wakes more than there are slots.
    else await new Promise<void>((resolve) => this.waiting[priority].push(resolve));
    try {
      return await task();
    } finally {
      this.active -= 1;
      if (priority === 'background') this.activeBackground -= 1;
      this.next();
    }
  }

  /** Background work keeps one slot free for a page (with a single slot, it waits for an idle moment). */
  private canStart(priority: RequestPriority): boolean {
    if (this.active >= this.slots) return false;
    if (priority === 'page') return true;
    return this.waiting.page.length === 0 && this.activeBackground < Math.max(1, this.slots - 1);
  }

  private take(priority: RequestPriority): void {
    this.active += 1;
    if (priority === 'background') this.activeBackground += 1;
  }

  private next(): void {
    for (;;) {
      const priority: RequestPriority | null =
        this.waiting.page.length > 0 && this.canStart('page') ? 'page' : this.waiting.background.length > 0 && this.canStart('background') ? 'background' : null;
      if (!priority) return;
      this.take(priority);
      this.waiting[priority].shift()!();
    }
  }
}
