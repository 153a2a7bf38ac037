import type { KeyGroupSpread } from '../../contracts/rescale.ts';
import { checkParallelismAgainstMax } from './key-group-range-assignment.ts';

/**
 * How `maxParallelism` key groups fall on `parallelism` subtasks: `maxParallelism % parallelism` subtasks own one key
 * group more than the rest (Flink's `computeKeyGroupRangeForOperatorIndex` hands out contiguous ranges). Even only
 * when the parallelism divides the max parallelism.
 */
export function keyGroupSpread(maxParallelism: number, parallelism: number): KeyGroupSpread {
  checkParallelismAgainstMax('the vertex', parallelism, maxParallelism);
  const small = Math.floor(maxParallelism / parallelism);
  const largerCount = maxParallelism % parallelism;
  return {
    maxParallelism,
    parallelism,
    larger: { subtasks: largerCount, keyGroups: largerCount > 0 ? small + 1 : small },
    smaller: { subtasks: parallelism - largerCount, keyGroups: small },
    even: largerCount === 0,
  };
}

/**
 * The spread in words, e.g. "128 key groups over 48 subtasks: 32 subtasks get 3 key groups and 16 get 2, so under
 * evenly spread keys the first carry 1.5× the load of the others."
 */
export function describeSpread(spread: KeyGroupSpread): string {
  const { maxParallelism, parallelism, larger, smaller } = spread;
  if (spread.even) return `${maxParallelism} key groups over ${parallelism} subtasks: ${smaller.keyGroups} each, an even spread.`;
  const ratio = larger.keyGroups / smaller.keyGroups;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const groups = (n: number) => plural(n, 'key group');
  return (
    `${maxParallelism} key groups over ${parallelism} subtasks: ${plural(larger.subtasks, 'subtask')} get ${groups(larger.keyGroups)} and ` +
    `${smaller.subtasks} get ${smaller.keyGroups}, so under evenly spread keys the first carry ${formatRatio(ratio)}× the load of the others.`
  );
}

function formatRatio(ratio: number): string {
  return Number.isInteger(ratio) ? String(ratio) : ratio.toFixed(2).replace(/0$/, '');
}
