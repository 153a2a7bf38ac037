import { z } from 'zod';

/**
 * The parts of the Prometheus HTTP API (`/api/v1/...`) the console reads, validated at the boundary, as Prometheus,
 * Thanos, Mimir and VictoriaMetrics answer them. Every answer is an envelope: `{status: "success", data, warnings?}`
 * or `{status: "error", errorType, error}`. Unknown fields pass through; a wrong type fails naming its field.
 */

/** The first instant of the year 10000 (epoch s): no scrape happens there, and dates beyond do not print. */
const YEAR_10000_S = 253_402_300_800;

/** A sample's time: epoch seconds with a fraction (Prometheus' own resolution is the millisecond). */
const epochSeconds = z
  .number()
  .min(0, { error: (issue) => `Is ${String(issue.input)}, before 1970` })
  .lt(YEAR_10000_S, { error: (issue) => `Is ${String(issue.input)}, after the year 9999` });

/** Go's float formatting (`strconv.FormatFloat`), and the exponent form other implementations write. */
const FLOAT_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A sample's value: Prometheus writes floats as strings, with `NaN`, `+Inf` and `-Inf` for what JSON cannot say.
 * Those three read as NaN: an infinite counter is no figure, and a gap is shown as a gap, never as a number.
 */
export const sampleValue = z.string().transform((text, ctx) => {
  if (FLOAT_TEXT.test(text)) return Number(text);
  if (/^([+-]?Inf|NaN)$/.test(text)) return Number.NaN;
  ctx.addIssue({ code: 'custom', message: `Is "${text.slice(0, 40)}", not a number as Prometheus writes one` });
  return z.NEVER;
});

/** `[t, "value"]` → `{t: epoch ms, value}`; the ms rounded, as Prometheus keeps them. */
const samplePair = z.tuple([epochSeconds, sampleValue]).transform(([seconds, value]) => ({ t: Math.round(seconds * 1000), value }));
export type SamplePoint = z.output<typeof samplePair>;

/** A series' labels, `__name__` included. Values are whatever the reporter wrote: never trusted as text. */
const labels = z.record(z.string(), z.string());
export type SeriesLabels = z.output<typeof labels>;

const rangeSeries = z.object({ metric: labels, values: z.array(samplePair).default([]) });
export type RangeSeries = z.output<typeof rangeSeries>;
const instantSeries = z.object({ metric: labels, value: samplePair });

/** The answer of a range query: one series per label set, its values at each step of the range that had one. */
const matrix = z.object({ resultType: z.literal('matrix'), result: z.array(rangeSeries) });
/** The answer of an instant query: any of the four result types PromQL has. */
const instantResult = z.discriminatedUnion('resultType', [
  z.object({ resultType: z.literal('vector'), result: z.array(instantSeries) }),
  matrix,
  z.object({ resultType: z.literal('scalar'), result: samplePair }),
  z.object({ resultType: z.literal('string'), result: z.tuple([epochSeconds, z.string()]) }),
]);

const buildInfo = z.object({
  version: z.string(),
  revision: z.string().optional(),
  branch: z.string().optional(),
  goVersion: z.string().optional(),
});

/** A Go duration as Prometheus writes a scrape interval: `15s`, `1m30s`, `500ms`. */
const GO_DURATION = /^((\d+(\.\d+)?)(ms|s|m|h|d|w|y))+$/;
const target = z.object({
  labels: labels.default({}),
  scrapePool: z.string().optional(),
  scrapeUrl: z.string().optional(),
  health: z.string().optional(),
  lastError: z.string().optional(),
  /** Prometheus 2.35+; absent in older ones and some compatible stores. */
  scrapeInterval: z.string().regex(GO_DURATION, { error: 'Is not a duration as Prometheus writes one (15s, 1m30s)' }).optional(),
});
const targets = z.object({ activeTargets: z.array(target).default([]) });

const error = z.object({ status: z.literal('error'), errorType: z.string().optional(), error: z.string().default('') });

/** `{status: "success", data}` or `{status: "error", ...}`: both are answers, the caller unwraps with `dataOf`. */
function envelope<D extends z.ZodType>(data: D) {
  return z.discriminatedUnion('status', [
    z.object({ status: z.literal('success'), data, warnings: z.array(z.string()).optional(), infos: z.array(z.string()).optional() }),
    error,
  ]);
}

export const QueryRangeAnswer = envelope(matrix);
export const QueryAnswer = envelope(instantResult);
export const SeriesAnswer = envelope(z.array(labels));
export const BuildInfoAnswer = envelope(buildInfo);
export const TargetsAnswer = envelope(targets);

export type Envelope<D> = { status: 'success'; data: D; warnings?: string[]; infos?: string[] } | z.output<typeof error>;
export type Matrix = z.output<typeof matrix>;
export type Target = z.output<typeof target>;
