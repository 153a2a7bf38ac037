import type { RequestRecord } from './events.ts';

/** USD per 1,000 tokens, input and output. */
export interface ModelPrice {
  inputPer1k: number;
  outputPer1k: number;
}

/** The model price table of the issue: model-a 0.0025 / 0.0100, model-b 0.0005 / 0.0015 USD per 1k tokens. */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'model-a': { inputPer1k: 0.0025, outputPer1k: 0.01 },
  'model-b': { inputPer1k: 0.0005, outputPer1k: 0.0015 },
};

/**
 * Cost of a request in nano-USD, an integer: prices per token are whole nano-USD amounts (0.0025 USD / 1k tokens
 * = 2,500 nano-USD per token), so sums are exact and independent of the order records arrive in — the sink's
 * final answer is the same after any restart or re-firing. Unknown models cost 0.
 */
export function requestCostNanoUsd(record: Pick<RequestRecord, 'model' | 'prompt_tokens' | 'completion_tokens'>, prices: Readonly<Record<string, ModelPrice>> = DEFAULT_PRICES): number {
  const price = prices[record.model];
  if (!price) return 0;
  return record.prompt_tokens * Math.round(price.inputPer1k * 1e6) + record.completion_tokens * Math.round(price.outputPer1k * 1e6);
}

export function nanoUsdToUsd(nano: number): number {
  return nano / 1e9;
}
