import { cellKey, type ExpectedTotals, type OracleRecord } from './gatewaymeter-oracle.ts';
import type { UpsertRow } from './upsert-log.ts';

/**
 * Compares the oracle's expected totals with a run's result rows and explains every difference.
 * A cell (tenant, minute) passes when `requests` and USD (to the nano-USD) equal the oracle's certain sum plus some
 * subset of its uncertain (late) records; a missing cell passes only if everything in it was uncertain; a row the
 * oracle has no record for fails.
 */

export type CellProblemKind = 'missing' | 'unexpected' | 'mismatch' | 'bad-window-end' | 'unverified';

export interface CellProblem {
  kind: CellProblemKind;
  key: string;
  message: string;
}

export interface TotalsComparison {
  ok: boolean;
  /** Cells checked (expected ∪ actual). */
  cells: number;
  problems: CellProblem[];
  /** Uncertain (late) records the run counted, and those it dropped, over the matched cells. */
  lateCounted: number;
  lateDropped: number;
  expected: { requests: number; nanoUsd: number; uncertainRequests: number };
  actual: { requests: number; nanoUsd: number };
  /** A readable report: totals, then the first problems. */
  report(maxProblems?: number): string;
}

/** USD as the sink writes it (nano / 1e9) back to whole nano-USD. */
export function usdToNano(usd: number): number {
  return Math.round(usd * 1e9);
}

function formatUsd(nano: number): string {
  return (nano / 1e9).toFixed(9);
}

/**
 * A subset of `records` with exactly `count` records summing to `nano`, or undefined if none exists; `null` when the
 * search gave up (too many combinations).
 */
export function findLateSubset(records: readonly OracleRecord[], count: number, nano: number, budget = 2_000_000): OracleRecord[] | undefined | null {
  if (count < 0 || count > records.length) return undefined;
  const sorted = [...records].sort((a, b) => b.nanoUsd - a.nanoUsd);
  const chosen: OracleRecord[] = [];
  let steps = 0;
  const search = (from: number, left: number, target: number): boolean | null => {
    if (++steps > budget) return null;
    if (left === 0) return target === 0;
    if (sorted.length - from < left) return false;
    // Bounds: the `left` largest and smallest remaining values.
    let max = 0;
    for (let i = from; i < from + left; i++) max += sorted[i].nanoUsd;
    let min = 0;
    for (let i = sorted.length - left; i < sorted.length; i++) min += sorted[i].nanoUsd;
    if (target > max || target < min) return false;
    for (let i = from; i <= sorted.length - left; i++) {
      if (i > from && sorted[i].nanoUsd === sorted[i - 1].nanoUsd) continue; // same value, same outcome
      chosen.push(sorted[i]);
      const r = search(i + 1, left - 1, target - sorted[i].nanoUsd);
      if (r !== false) return r;
      chosen.pop();
    }
    return false;
  };
  const found = search(0, count, nano);
  if (found === null) return null;
  return found ? [...chosen] : undefined;
}

export function compareTotals(expected: ExpectedTotals, actualRows: ReadonlyMap<string, UpsertRow> | Iterable<UpsertRow>): TotalsComparison {
  const actual = new Map<string, UpsertRow>();
  if (actualRows instanceof Map) for (const [k, v] of actualRows) actual.set(k, v);
  else for (const row of actualRows as Iterable<UpsertRow>) actual.set(cellKey(row.tenant_id, row.window_start), row);
  const problems: CellProblem[] = [];
  let lateCounted = 0;
  let lateDropped = 0;
  const totals = { expected: { requests: 0, nanoUsd: 0, uncertainRequests: 0 }, actual: { requests: 0, nanoUsd: 0 } };
  const keys = new Set([...expected.cells.keys(), ...actual.keys()]);
  for (const key of [...keys].sort()) {
    const cell = expected.cells.get(key);
    const row = actual.get(key);
    if (cell) {
      totals.expected.requests += cell.certain.requests;
      totals.expected.nanoUsd += cell.certain.nanoUsd;
      totals.expected.uncertainRequests += cell.uncertain.length;
    }
    if (row) {
      totals.actual.requests += row.requests;
      totals.actual.nanoUsd += usdToNano(row.usd);
    }
    const late = cell ? `${cell.uncertain.length} late record(s) may or may not count` : '';
    if (!row) {
      if (cell && cell.certain.requests > 0) {
        problems.push({
          kind: 'missing',
          key,
          message: `${key}: missing; expected ${cell.certain.requests} request(s), ${formatUsd(cell.certain.nanoUsd)} USD${cell.uncertain.length ? ` (+ ${late})` : ''}.`,
        });
      } else if (cell) lateDropped += cell.uncertain.length;
      continue;
    }
    if (!cell) {
      problems.push({ kind: 'unexpected', key, message: `${key}: unexpected row (${row.requests} request(s), ${row.usd} USD); the oracle has no request in this minute.` });
      continue;
    }
    if (row.window_end !== cell.window_end) {
      problems.push({ kind: 'bad-window-end', key, message: `${key}: window_end ${row.window_end}, expected ${cell.window_end}.` });
    }
    const extraRequests = row.requests - cell.certain.requests;
    const extraNano = usdToNano(row.usd) - cell.certain.nanoUsd;
    if (extraRequests === 0 && extraNano === 0) {
      lateDropped += cell.uncertain.length;
      continue;
    }
    const subset = findLateSubset(cell.uncertain, extraRequests, extraNano);
    if (subset) {
      lateCounted += subset.length;
      lateDropped += cell.uncertain.length - subset.length;
      continue;
    }
    const expectedText = `${cell.certain.requests} request(s), ${formatUsd(cell.certain.nanoUsd)} USD${cell.uncertain.length ? ` (+ ${late})` : ''}`;
    const actualText = `${row.requests} request(s), ${formatUsd(usdToNano(row.usd))} USD`;
    if (subset === null) {
      problems.push({ kind: 'unverified', key, message: `${key}: got ${actualText}; expected ${expectedText}: too many late combinations to check.` });
    } else {
      const diff = `${extraRequests >= 0 ? '+' : ''}${extraRequests} request(s), ${extraNano >= 0 ? '+' : ''}${formatUsd(extraNano)} USD`;
      problems.push({ kind: 'mismatch', key, message: `${key}: got ${actualText}; expected ${expectedText}; difference ${diff}.` });
    }
  }
  return {
    ok: problems.length === 0,
    cells: keys.size,
    problems,
    lateCounted,
    lateDropped,
    expected: totals.expected,
    actual: totals.actual,
    report(maxProblems = 20) {
      const head =
        `${problems.length === 0 ? 'OK' : `${problems.length} problem(s)`} over ${keys.size} (tenant, minute) cells. ` +
        `Expected ${totals.expected.requests} certain request(s) (${formatUsd(totals.expected.nanoUsd)} USD) + ${totals.expected.uncertainRequests} late; ` +
        `got ${totals.actual.requests} (${formatUsd(totals.actual.nanoUsd)} USD); late counted ${lateCounted}, dropped ${lateDropped}.`;
      const lines = problems.slice(0, maxProblems).map((p) => `  - ${p.message}`);
      if (problems.length > maxProblems) lines.push(`  … and ${problems.length - maxProblems} more.`);
      return [head, ...lines].join('\n');
    },
  };
}
