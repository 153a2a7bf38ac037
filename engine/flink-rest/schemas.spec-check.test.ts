import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { OFFICIAL_SPEC_FILE } from './official-spec-file.ts';
import { endpoints } from './endpoints.ts';
import { logEndpoints } from './log-endpoints.ts';
import { viewEndpoints } from './view-endpoints.ts';

/**
 * Every field the console reads must exist in Flink's official spec, so a typo or a guessed name fails here
 * rather than showing "-" against a real cluster. Two documented deviations of the spec from the wire are checked
 * against the wire's shape instead, as long as the spec still deviates.
 * A field of a discriminated subtype (`external_path` of a completed checkpoint) is a field of its base.
 */
const SPEC_FILE = OFFICIAL_SPEC_FILE;

type SpecSchema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, SpecSchema>;
  items?: SpecSchema;
  allOf?: SpecSchema[];
  oneOf?: SpecSchema[];
  discriminator?: { mapping?: Record<string, string> };
};
const spec = parse(readFileSync(SPEC_FILE, 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: SpecSchema }> }> }>>;
  components: { schemas: Record<string, SpecSchema> };
};

/**
 * Fields newer than the 1.19 spec, each seen in e2e/flink/recorded: renamed in 2.x (`host` → `endpoint`: the console
 * reads both); added in 1.20 (`job-type`, `slotSharingGroupId`) and in 2.3 (the rest).
 */
const NEWER_THAN_SPEC = new Set(['endpoint', 'job-type', 'slotSharingGroupId', 'application-id', 'schedulerType', 'jobType', 'slotSharingGroupName', 'assignedTasks']);

/** Documented deviation: `JobConfigInfo.Serializer` writes these names, not the spec's (checked on 2.2.1 and 1.20.3). */
const JOB_CONFIG_WIRE_NAMES: Record<string, string> = { jid: 'jobId', name: 'jobName', 'execution-config': 'executionConfigInfo' };

function resolve(schema: SpecSchema): SpecSchema {
  if (schema.$ref) return resolve(spec.components.schemas[schema.$ref.split('/').pop()!]);
  // A discriminated base (`CheckpointStatistics` by `className`): a field of any of its subtypes is a known field.
  if (schema.discriminator?.mapping) {
    const subtypes = Object.values(schema.discriminator.mapping).map((ref) => spec.components.schemas[ref.split('/').pop()!]);
    const own = (subtype: SpecSchema) => (subtype.allOf ?? []).filter((part) => !part.$ref).map((part) => resolve(part).properties);
    return { ...schema, discriminator: undefined, properties: Object.assign({}, schema.properties, ...subtypes.flatMap(own)) };
  }
  if (schema.allOf) return { properties: Object.assign({}, ...schema.allOf.map((s) => resolve(s).properties)) };
  if (schema.oneOf) return { properties: Object.assign({}, ...schema.oneOf.map((s) => resolve(s).properties)) };
  return schema;
}

/** Documented deviation: the spec's `AggregatedMetricsResponseBody` has no properties; Flink sends `[{id, min, max, avg, sum, skew}]` (flink-rest/DIGEST.md). */
const AGGREGATED_METRICS_ON_THE_WIRE: SpecSchema = {
  type: 'array',
  items: { type: 'object', properties: Object.fromEntries(['id', 'min', 'max', 'avg', 'sum', 'skew'].map((key) => [key, {}])) },
};
/** Documented deviation: the spec wraps the list in `{metrics: [...]}`; Flink sends the bare list. */
const METRIC_COLLECTION_ON_THE_WIRE: SpecSchema = { type: 'array', items: { $ref: '#/components/schemas/Metric' } };

/** The schema the console's fields are checked against: the spec's, or the wire's where the spec is known to differ (checked to still differ). */
function checkedAgainst(specSchema: string, schema: SpecSchema): SpecSchema {
  if (specSchema === 'MetricCollectionResponseBody') {
    expect(resolve(schema).properties, 'the spec still wraps the metrics in an object').toHaveProperty('metrics');
    return METRIC_COLLECTION_ON_THE_WIRE;
  }
  if (specSchema === 'AggregatedMetricsResponseBody') {
    expect(resolve(schema).properties, 'the spec still documents no fields of an aggregated metric').toBeUndefined();
    return AGGREGATED_METRICS_ON_THE_WIRE;
  }
  return schema;
}

type ZodDef = { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (zod: z.ZodType): ZodDef => (zod as unknown as { def: ZodDef }).def;

/**
 * Walks the zod schema beside the spec schema, collecting fields the spec does not know (`unknown`) and counting
 * those it found (`known`): a walk that compared nothing proves nothing.
 */
function compareFields(zod: z.ZodType, specSchema: SpecSchema, at: string, out = { unknown: [] as string[], known: 0 }): { unknown: string[]; known: number } {
  const def = defOf(zod);
  const s = resolve(specSchema);
  if (def.type === 'optional' || def.type === 'default') return compareFields(def.innerType!, s, at, out);
  // `.transform()` pipes the wire's schema into a function, `z.preprocess()` a function into it: walk the schema side.
  if (def.type === 'pipe') return compareFields(defOf(def.out!).type === 'transform' ? def.in! : def.out!, s, at, out);
  if (def.type === 'array') return s.items ? compareFields(def.element!, s.items, `${at}[]`, out) : out;
  if (def.type === 'object' && s.properties) {
    for (const [key, child] of Object.entries(def.shape!)) {
      const field = s.properties[key] ?? (at === 'jobConfig' ? s.properties[JOB_CONFIG_WIRE_NAMES[key]] : undefined);
      if (field) {
        out.known++;
        compareFields(child, field, `${at}.${key}`, out);
      } else if (!NEWER_THAN_SPEC.has(key)) out.unknown.push(`${at}.${key}`);
    }
  }
  return out;
}

function responseSchema(method: string, template: string): SpecSchema {
  const specPath = template.replace(/:([a-z]+)/g, '{$1}');
  const operation = spec.paths[specPath]?.[method.toLowerCase()];
  expect(operation, `${method} ${specPath} is in the official spec`).toBeDefined();
  return operation!.responses['200'].content!['application/json'].schema;
}

describe('endpoint specs against the official Flink REST spec', () => {
  // The log files are plain text, served by untyped handlers the spec leaves out: their JSON siblings are checked.
  const jsonLogEndpoints = Object.fromEntries(Object.entries(logEndpoints).filter(([, e]) => !('text' in e)));
  for (const [name, endpoint] of Object.entries({ ...endpoints, ...viewEndpoints, ...jsonLogEndpoints })) {
    it(`${name}: ${endpoint.method} ${endpoint.path} returns ${endpoint.specSchema}`, () => {
      const schema = responseSchema(endpoint.method, endpoint.path);
      const named = schema.type === 'array' ? `${schema.items?.$ref?.split('/').pop()}[]` : schema.$ref?.split('/').pop();
      expect(named).toBe(endpoint.specSchema);
      const { unknown, known } = compareFields(endpoint.response, checkedAgainst(endpoint.specSchema, schema), name);
      expect(unknown).toEqual([]);
      expect(known, 'fields of the console\'s schema found in the spec').toBeGreaterThan(0);
    });
  }
});
