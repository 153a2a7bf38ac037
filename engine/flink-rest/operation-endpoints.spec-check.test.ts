import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { OFFICIAL_SPEC_FILE } from './official-spec-file.ts';
import { disposalBody, jarPlanBody, jarRunBody, resourceRequirementsBody, savepointBody, stopBody } from '../operations/request-bodies.ts';
import { operationEndpoints } from './operation-endpoints.ts';

/**
 * The write side against Flink's official spec: every endpoint the operations call exists with that method and
 * success status, every field they read is in its response schema, and every field of every body they send (built
 * by the very functions the operations use) is in the request schema, so a kebab-case/camelCase slip fails here.
 */
const SPEC_FILE = OFFICIAL_SPEC_FILE;

type SpecSchema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, SpecSchema>;
  additionalProperties?: SpecSchema;
  items?: SpecSchema;
  allOf?: SpecSchema[];
  oneOf?: SpecSchema[];
};
type SpecOperation = { requestBody?: { content: Record<string, { schema: SpecSchema }> }; responses: Record<string, { content?: Record<string, { schema: SpecSchema }> }> };
const spec = parse(readFileSync(SPEC_FILE, 'utf8')) as { paths: Record<string, Record<string, SpecOperation>>; components: { schemas: Record<string, SpecSchema> } };

/** Where the wire differs from the 1.19 spec (each seen on a real Flink; see the schemas' comments). */
const WIRE_DEVIATIONS: Record<string, string[]> = {
  // JobConfigInfo's serializer writes `jid`, `name`, `execution-config`.
  jobConfig: ['jobConfig.execution-config'],
  // JobResult's serializer writes kebab-case (`application-status`, `failure-cause`), the spec the Java names.
  jobExecutionResult: ['jobExecutionResult.job-execution-result.application-status', 'jobExecutionResult.job-execution-result.failure-cause'],
  // SerializedThrowable's serializer adds `class` and `stack-trace` beside the spec's `serialized-throwable`.
  savepointStatus: ['savepointStatus.operation.failure-cause.class', 'savepointStatus.operation.failure-cause.stack-trace'],
  savepointDisposalStatus: ['savepointDisposalStatus.operation.failure-cause.class', 'savepointDisposalStatus.operation.failure-cause.stack-trace'],
  // History entries are polymorphic (`className`): completed ones add `external_path` and `discarded`.
  savepointHistory: ['savepointHistory.history[].external_path', 'savepointHistory.history[].discarded'],
};

function resolve(schema: SpecSchema): SpecSchema {
  if (schema.$ref) return resolve(spec.components.schemas[schema.$ref.split('/').pop()!]);
  if (schema.allOf) return { properties: Object.assign({}, ...schema.allOf.map((s) => resolve(s).properties)) };
  if (schema.oneOf) return { properties: Object.assign({}, ...schema.oneOf.map((s) => resolve(s).properties)) };
  return schema;
}

function unknownResponseFields(zod: z.ZodType, specSchema: SpecSchema, at: string, out: string[]): string[] {
  const def = (zod as unknown as { def: { type: string; innerType?: z.ZodType; out?: z.ZodType; element?: z.ZodType; valueType?: z.ZodType; shape?: Record<string, z.ZodType> } }).def;
  const s = resolve(specSchema);
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') return unknownResponseFields(def.innerType!, s, at, out);
  if (def.type === 'pipe') return unknownResponseFields(def.out!, s, at, out);
  if (def.type === 'array') return s.items ? unknownResponseFields(def.element!, s.items, `${at}[]`, out) : out;
  if (def.type === 'record') return s.additionalProperties ? unknownResponseFields(def.valueType!, s.additionalProperties, `${at}{}`, out) : out;
  if (def.type === 'object' && s.properties) {
    for (const [key, child] of Object.entries(def.shape!)) {
      const field = s.properties[key];
      if (field) unknownResponseFields(child, field, `${at}.${key}`, out);
      else out.push(`${at}.${key}`);
    }
  }
  return out;
}

function unknownBodyFields(body: unknown, specSchema: SpecSchema, at: string, out: string[]): string[] {
  const s = resolve(specSchema);
  if (Array.isArray(body)) return s.items ? body.flatMap((b) => unknownBodyFields(b, s.items!, `${at}[]`, [])).concat(out) : out;
  if (typeof body !== 'object' || body === null) return out;
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const field = s.properties?.[key] ?? s.additionalProperties;
    if (!field) out.push(`${at}.${key}`);
    else unknownBodyFields(value, field, `${at}.${key}`, out);
  }
  return out;
}

function operationOf(method: string, template: string): SpecOperation {
  const specPath = template.replace(/:([a-z]+)/g, '{$1}');
  const operation = spec.paths[specPath]?.[method.toLowerCase()];
  expect(operation, `${method} ${specPath} is in the official spec`).toBeDefined();
  return operation!;
}

describe('operation endpoints against the official Flink REST spec', () => {
  for (const [name, endpoint] of Object.entries(operationEndpoints)) {
    it(`${name}: ${endpoint.method} ${endpoint.path} answers ${endpoint.specStatus} ${endpoint.specSchema}`, () => {
      const operation = operationOf(endpoint.method, endpoint.path);
      const response = operation.responses[String(endpoint.specStatus)];
      expect(response, `${endpoint.specStatus} is the success status of ${endpoint.method} ${endpoint.path}`).toBeDefined();
      const schema = response.content?.['application/json']?.schema;
      if (endpoint.specSchema === '(empty)') {
        expect(schema).toBeUndefined();
        return;
      }
      const named = schema!.type === 'array' ? `${schema!.items?.$ref?.split('/').pop()}[]` : schema!.$ref?.split('/').pop();
      expect(named).toBe(endpoint.specSchema);
      expect(unknownResponseFields(endpoint.response, schema!, name, []).sort()).toEqual((WIRE_DEVIATIONS[name] ?? []).sort());
      if (endpoint.specRequest) expect(operation.requestBody?.content['application/json'].schema.$ref?.split('/').pop()).toBe(endpoint.specRequest);
    });
  }

  it('every field of the bodies the operations send is in the request schemas', () => {
    const all = { targetDirectory: 's3://b/sp', format: 'native' as const, drain: true, jobParallelism: 3, savepointPath: 's3://b/sp/savepoint-1', allowNonRestoredState: true, newJobId: 'a'.repeat(32) };
    const bodies: Array<[keyof typeof operationEndpoints, unknown]> = [
      ['triggerSavepoint', savepointBody(all, 'b'.repeat(32))],
      ['stopWithSavepoint', stopBody(all, 'b'.repeat(32))],
      ['planJar', jarPlanBody({ jarId: 'x.jar', entryClass: 'com.example.Main', programArgs: ['--rate', '10'] }, all)],
      ['runJar', jarRunBody({ jarId: 'x.jar', entryClass: 'com.example.Main', programArgs: ['--rate', '10'] }, all)],
      ['disposeSavepoint', disposalBody('file:/tmp/sp/savepoint-1')],
      ['updateResourceRequirements', resourceRequirementsBody({ ['c'.repeat(32)]: { parallelism: { lowerBound: 1, upperBound: 2 } } }, { ['c'.repeat(32)]: 4 })],
    ];
    for (const [name, body] of bodies) {
      const endpoint = operationEndpoints[name];
      const schema = operationOf(endpoint.method, endpoint.path).requestBody!.content['application/json'].schema;
      expect(unknownBodyFields(body, schema, name, []), `${name} sends only fields of ${endpoint.specRequest}`).toEqual([]);
    }
    expect(savepointBody(all, 'b'.repeat(32))).toMatchObject({ 'target-directory': 's3://b/sp', formatType: 'NATIVE', triggerId: 'b'.repeat(32), 'cancel-job': false });
    expect(stopBody(all, 'b'.repeat(32))).toMatchObject({ targetDirectory: 's3://b/sp', drain: true, formatType: 'NATIVE', triggerId: 'b'.repeat(32) });
  });
});
