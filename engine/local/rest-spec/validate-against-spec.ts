import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { OFFICIAL_SPEC_FILE } from '../../flink-rest/official-spec-file.ts';

/**
 * Validates a response body against Flink's official OpenAPI spec (`resources/flink-rest/rest_v1_dispatcher.1.19-SNAPSHOT.yml`)
 * for one (method, path template, status), the way the local engine's REST server must answer.
 *
 * OpenAPI 3.0 schemas are turned into JSON Schema for ajv. Where real Flink's wire format departs from its own spec,
 * the departure is accepted on purpose and listed in {@link WIRE_DEVIATIONS} (each one observed on a real Flink 2.2.1
 * / 1.20.3 or read in its source); pass `{ wireDeviations: false }` to validate against the spec as written.
 */

export interface WireDeviation {
  id: string;
  what: string;
  evidence: string;
}

/** Every place where Flink's wire format and its spec disagree, and this validator follows the wire. */
export const WIRE_DEVIATIONS: readonly WireDeviation[] = [
  {
    id: 'null-for-unset',
    what: 'Any property that is not `required` may be JSON null: Flink\'s Jackson mapper writes unset fields as null.',
    evidence: '`savepointFormat: null`, `latest.savepoint: null` in recorded checkpoints.json; `{"status":{"id":"IN_PROGRESS"},"operation":null}` from a real 2.2.1.',
  },
  {
    id: 'nan-doubles',
    what: 'A `format: double` number may be the string "NaN" ("Infinity", "-Infinity"): Jackson quotes non-finite doubles.',
    evidence: 'StatsSummaryDto percentiles of a StatsSummary without histogram (task summaries) or with no values, real 2.2.1.',
  },
  {
    id: 'lowercase-processing-mode',
    what: 'CheckpointConfigInfo.mode is lower case (`exactly_once`, `at_least_once`); the spec lists upper case.',
    evidence: 'recorded 2.2.1 and 1.20.3 checkpoints-config.json.',
  },
  {
    id: 'oneof-as-anyof',
    what: '`oneOf` without a discriminator is read as `anyOf`: its alternatives (AsynchronousOperationInfo, CheckpointInfo, SavepointInfo) are open objects that any body matches at once.',
    evidence: 'AsynchronousOperationResult.operation; `{"location": ...}` matches all three alternatives.',
  },
  {
    id: 'resource-id-any-string',
    what: 'ResourceID (a TaskManager ID) is any string: standalone TaskManagers are "<host>:<port>-<6 hex>", not the spec\'s 32 hex.',
    evidence: 'recorded 2.2.1 taskmanagers.json ("127.0.0.1:46143-6e8357").',
  },
  {
    id: 'metric-lists-are-arrays',
    what: 'MetricCollectionResponseBody and AggregatedMetricsResponseBody are bare JSON arrays on the wire; the items are validated.',
    evidence: 'DIGEST.md; recorded subtasks-metrics.json.',
  },
  {
    id: 'job-config-serializer',
    what: 'JobConfigInfo is written by its custom serializer as `jid`, `name`, `execution-config`.',
    evidence: 'JobConfigInfo.Serializer; recorded job config.',
  },
];

const DEFAULT_SPEC_FILE = OFFICIAL_SPEC_FILE;

type Json = unknown;
type SchemaNode = Record<string, unknown>;
interface SpecOperation {
  responses: Record<string, { content?: Record<string, { schema: SchemaNode }> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, SpecOperation>>;
  components: { schemas: Record<string, SchemaNode> };
}

export interface SpecValidationOptions {
  /** Accept the documented departures of the wire from the spec ({@link WIRE_DEVIATIONS}). @default true */
  wireDeviations?: boolean;
}

interface CompiledSpec {
  document: OpenApiDocument;
  ajv: Ajv;
  cache: Map<string, ValidateFunction>;
}

const loaded = new Map<string, CompiledSpec>();

function isObject(v: unknown): v is SchemaNode {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const NON_FINITE = ['NaN', 'Infinity', '-Infinity'];

/**
 * OpenAPI 3.0 schema node → JSON Schema node. `$ref`s point into `$defs`; with `wire`, the deviations are applied:
 * optional properties may be null, doubles may be "NaN", oneOf becomes anyOf.
 */
function convert(node: Json, wire: boolean): Json {
  if (Array.isArray(node)) return node.map((n) => convert(n, wire));
  if (!isObject(node)) return node;
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'discriminator') continue; // rebuilt by addDiscriminators
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/components/schemas/', '#/$defs/');
    else if (key === 'properties' && isObject(value)) {
      const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
      const props: SchemaNode = {};
      for (const [name, schema] of Object.entries(value)) {
        const converted = convert(schema, wire);
        props[name] = wire && !required.has(name) ? { anyOf: [converted, { type: 'null' }] } : converted;
      }
      out.properties = props;
    } else if (key === 'oneOf' && wire) out.anyOf = convert(value, wire);
    else out[key] = convert(value, wire);
  }
  if (wire && out.type === 'number' && out.format === 'double') {
    return { anyOf: [out, { type: 'string', enum: NON_FINITE }] };
  }
  return out;
}

/**
 * Discriminated schemas (`CheckpointStatistics` by `className`): the base keeps its fields as `<Name>__base`, the
 * subtypes extend the base, and `<Name>` itself checks the subtype its `className` names (and rejects unknown names).
 */
function addDiscriminators(defs: Record<string, SchemaNode>, source: Record<string, SchemaNode>): void {
  for (const [name, schema] of Object.entries(source)) {
    const discriminator = schema.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
    if (!discriminator?.mapping) continue;
    const baseName = `${name}__base`;
    defs[baseName] = defs[name];
    const baseRef = `#/$defs/${name}`;
    const mapped = Object.entries(discriminator.mapping).map(([value, ref]) => ({ value, def: ref.split('/').pop()! }));
    for (const { def } of mapped) {
      const rewritten = JSON.stringify(defs[def]).split(`"${baseRef}"`).join(`"#/$defs/${baseName}"`);
      defs[def] = JSON.parse(rewritten) as SchemaNode;
    }
    const prop = discriminator.propertyName;
    defs[name] = {
      allOf: [
        { $ref: `#/$defs/${baseName}` },
        { type: 'object', properties: { [prop]: { enum: mapped.map((m) => m.value) } } },
        ...mapped.map(({ value, def }) => ({
          if: { type: 'object', properties: { [prop]: { const: value } }, required: [prop] },
          then: { $ref: `#/$defs/${def}` },
        })),
      ],
    };
  }
}

function compileSpec(file: string, wire: boolean): CompiledSpec {
  const key = `${file}|${wire}`;
  const cached = loaded.get(key);
  if (cached) return cached;
  const document = parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  const defs: Record<string, SchemaNode> = {};
  for (const [name, schema] of Object.entries(document.components.schemas)) defs[name] = convert(schema, wire) as SchemaNode;
  addDiscriminators(defs, document.components.schemas);
  if (wire) {
    const mode = defs.ProcessingMode;
    if (Array.isArray(mode?.enum)) mode.enum = [...(mode.enum as string[]), ...(mode.enum as string[]).map((v) => v.toLowerCase())];
    if (defs.ResourceID) defs.ResourceID = { type: 'string' };
  }
  const ajv = new Ajv({ strict: true, allErrors: true });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('binary', { type: 'string', validate: () => true });
  ajv.addFormat('byte', { type: 'string', validate: () => true });
  ajv.addSchema({ $id: 'flink', $defs: defs });
  const compiled: CompiledSpec = { document, ajv, cache: new Map() };
  loaded.set(key, compiled);
  return compiled;
}

function validatorFor(spec: CompiledSpec, schema: SchemaNode, wire: boolean): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = spec.cache.get(key);
  if (!v) {
    const converted = JSON.stringify(convert(schema, wire)).replace(/"#\/\$defs\//g, '"flink#/$defs/');
    v = spec.ajv.compile(JSON.parse(converted) as SchemaNode);
    spec.cache.set(key, v);
  }
  return v;
}

function errorsOf(v: ValidateFunction, body: unknown, at = ''): string[] {
  if (v(body)) return [];
  return (v.errors ?? []).map((e) => `${at}${e.instancePath || '/'} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
}

/** `/jobs/:jobid/checkpoints` → the spec's `/jobs/{jobid}/checkpoints`. */
export function specPathOf(template: string): string {
  return template.replace(/:([a-zA-Z]+)/g, '{$1}');
}

export interface SpecLookup {
  /** The spec file; defaults to `resources/flink-rest/rest_v1_dispatcher.1.19-SNAPSHOT.yml`. */
  specFile?: string;
}

/** Whether the spec documents (method, path template). */
export function specHasOperation(method: string, template: string, lookup: SpecLookup = {}): boolean {
  const spec = compileSpec(lookup.specFile ?? DEFAULT_SPEC_FILE, true);
  return spec.document.paths[specPathOf(template)]?.[method.toLowerCase()] !== undefined;
}

/**
 * Validates `body` as the response of `method template` with HTTP `status`; returns readable errors, `[]` when valid.
 * An operation or status the spec does not document is an error, not a pass.
 */
export function validateAgainstSpec(
  method: string,
  template: string,
  status: number,
  body: unknown,
  options: SpecValidationOptions & SpecLookup = {},
): string[] {
  const wire = options.wireDeviations ?? true;
  const spec = compileSpec(options.specFile ?? DEFAULT_SPEC_FILE, wire);
  const operation = spec.document.paths[specPathOf(template)]?.[method.toLowerCase()];
  if (!operation) return [`${method.toUpperCase()} ${template} is not in the spec`];
  const response = operation.responses[String(status)];
  if (!response) return [`${method.toUpperCase()} ${template} does not document status ${status} (documented: ${Object.keys(operation.responses).join(', ')})`];
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return body === undefined || body === '' ? [] : [`${method.toUpperCase()} ${template} ${status} has no body in the spec`];
  const name = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
  if (wire && (name === 'MetricCollectionResponseBody' || name === 'AggregatedMetricsResponseBody')) {
    if (!Array.isArray(body)) return [`${name} is a bare JSON array on the wire`];
    const item = name === 'MetricCollectionResponseBody' ? validatorFor(spec, { $ref: '#/components/schemas/Metric' }, wire) : validatorFor(spec, AGGREGATED_ITEM, wire);
    return body.flatMap((element, i) => errorsOf(item, element, `[${i}]`));
  }
  if (wire && name === 'JobConfigInfo') {
    const b = (isObject(body) ? body : {}) as Record<string, unknown>;
    const errors = errorsOf(validatorFor(spec, { $ref: '#/components/schemas/JobID' }, wire), b.jid, 'jid');
    if (typeof b.name !== 'string') errors.push('name must be a string');
    return errors.concat(errorsOf(validatorFor(spec, { $ref: '#/components/schemas/ExecutionConfigInfo' }, wire), b['execution-config'], 'execution-config'));
  }
  return errorsOf(validatorFor(spec, schema, wire), body);
}

/** Validates `body` against one named schema of the spec (`components.schemas.<name>`). */
export function validateSchema(name: string, body: unknown, options: SpecValidationOptions & SpecLookup = {}): string[] {
  const wire = options.wireDeviations ?? true;
  const spec = compileSpec(options.specFile ?? DEFAULT_SPEC_FILE, wire);
  if (!spec.document.components.schemas[name]) return [`schema ${name} is not in the spec`];
  return errorsOf(validatorFor(spec, { $ref: `#/components/schemas/${name}` }, wire), body);
}

/** Flink's error body: `{"errors": ["..."]}` with at least one string (the spec does not describe error statuses). */
export function isFlinkErrorBody(body: unknown): body is { errors: string[] } {
  return isObject(body) && Array.isArray(body.errors) && body.errors.length > 0 && body.errors.every((e) => typeof e === 'string');
}

/** What Flink sends for `AggregatedMetricsResponseBody`, element by element. */
const AGGREGATED_ITEM: SchemaNode = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string' }, min: { type: 'number' }, max: { type: 'number' }, avg: { type: 'number' }, sum: { type: 'number' }, skew: { type: 'number' } },
};
