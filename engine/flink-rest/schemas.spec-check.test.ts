import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { OFFICIAL_SPEC_FILE } from './official-spec-file.ts';
import { endpoints } from './endpoints.ts';

/**
 * Every field the console reads must exist in Flink's official spec, so a typo or a guessed name fails here
 * rather than showing "-" against a real cluster. Two documented deviations of the spec from the wire are allowed.
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

/** Fields renamed in Flink 2.x (`host` → `endpoint`): the console reads both, the 1.19 spec has only the old one. */
const NEWER_THAN_SPEC = new Set(['endpoint']);

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

/** Walks the zod schema beside the spec schema, collecting fields the spec does not know. */
function unknownFields(zod: z.ZodType, specSchema: SpecSchema, at: string, out: string[]): string[] {
  const def = (zod as unknown as { def: { type: string; innerType?: z.ZodType; out?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> } }).def;
  const s = resolve(specSchema);
  if (def.type === 'optional' || def.type === 'default') return unknownFields(def.innerType!, s, at, out);
  if (def.type === 'pipe') return unknownFields(def.out!, s, at, out);
  if (def.type === 'array') return s.items ? unknownFields(def.element!, s.items, `${at}[]`, out) : out;
  if (def.type === 'object' && s.properties) {
    for (const [key, child] of Object.entries(def.shape!)) {
      const field = s.properties[key] ?? (at === 'jobConfig' ? s.properties[JOB_CONFIG_WIRE_NAMES[key]] : undefined);
      if (field) unknownFields(child, field, `${at}.${key}`, out);
      else if (!NEWER_THAN_SPEC.has(key)) out.push(`${at}.${key}`);
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
  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${name}: ${endpoint.method} ${endpoint.path} returns ${endpoint.specSchema}`, () => {
      const schema = responseSchema(endpoint.method, endpoint.path);
      const named = schema.type === 'array' ? `${schema.items?.$ref?.split('/').pop()}[]` : schema.$ref?.split('/').pop();
      expect(named).toBe(endpoint.specSchema);
      if (endpoint.specSchema === 'MetricCollectionResponseBody') {
        // Documented deviation: the spec wraps the list in `{metrics: [...]}`; Flink sends the bare list.
        expect(unknownFields(endpoint.response, { type: 'array', items: { $ref: '#/components/schemas/Metric' } }, name, [])).toEqual([]);
        return;
      }
      if (endpoint.specSchema === 'AggregatedMetricsResponseBody') {
        // Documented deviation: the spec has no properties; Flink sends `[{id, min, max, avg, sum, skew}]`.
        return;
      }
      expect(unknownFields(endpoint.response, schema, name, [])).toEqual([]);
    });
  }
});
