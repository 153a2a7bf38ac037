/**
 * State time-to-live as Flink defines it (`StateTtlConfig`, `TtlUtils`, `AbstractTtlDecorator`): a value expires
 * `ttl` ms after its last access timestamp, in processing time; the timestamp is set on create and write
 * (`OnCreateAndWrite`) and also on read (`OnReadAndWrite`); an expired value is never returned
 * (`NeverReturnExpired`) or returned until cleaned up (`ReturnExpiredIfNotCleanedUp`).
 */
export type TtlUpdateType = 'OnCreateAndWrite' | 'OnReadAndWrite' | 'Disabled';
export type TtlStateVisibility = 'NeverReturnExpired' | 'ReturnExpiredIfNotCleanedUp';

export interface StateTtlConfig {
  /** Time to live in ms (processing time). */
  ttlMs: number;
  /** @default 'OnCreateAndWrite' */
  updateType?: TtlUpdateType;
  /** @default 'NeverReturnExpired' */
  stateVisibility?: TtlStateVisibility;
  /**
   * Entries checked for expiry on every access of the state (Flink's heap-backend incremental cleanup,
   * `cleanupIncrementally(5, false)`, which is its default background cleanup). 0 turns it off.
   * @default 5
   */
  incrementalCleanupSize?: number;
}

/** A stored value with its last access timestamp (Flink's `TtlValue`). */
export interface TtlValue<V> {
  v: V;
  ts: number;
}

const LONG_MAX = Number.MAX_SAFE_INTEGER;

/** `TtlUtils.expired(ts, ttl, now)`: expiration = ts + ttl (saturating), expired when expiration <= now. */
export function ttlExpired(lastAccessTimestamp: number, ttlMs: number, nowMs: number): boolean {
  const ttlWithoutOverflow = lastAccessTimestamp > 0 ? Math.min(LONG_MAX - lastAccessTimestamp, ttlMs) : ttlMs;
  return lastAccessTimestamp + ttlWithoutOverflow <= nowMs;
}

/** The resolved TTL behaviour of one state, or null when the state has no TTL. */
export interface TtlPolicy {
  ttlMs: number;
  updateTsOnRead: boolean;
  returnExpired: boolean;
  cleanupSize: number;
}

export function ttlPolicy(config: StateTtlConfig | undefined): TtlPolicy | null {
  if (!config || config.updateType === 'Disabled') return null;
  if (!(config.ttlMs > 0)) throw new RangeError(`State TTL must be positive, got ${config.ttlMs} ms.`);
  return {
    ttlMs: config.ttlMs,
    updateTsOnRead: config.updateType === 'OnReadAndWrite',
    returnExpired: config.stateVisibility === 'ReturnExpiredIfNotCleanedUp',
    cleanupSize: config.incrementalCleanupSize ?? 5,
  };
}
