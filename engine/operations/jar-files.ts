import type { JarInfo, JarList } from '../contracts/jars.ts';
import { MAX_JAR_UPLOAD_BYTES } from '../contracts/jars.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';

/**
 * A cluster's jars through Flink's REST API: list (`GET /jars`), upload (`POST /jars/upload`, multipart with the
 * field `jarfile`, as Flink's docs show), delete (`DELETE /jars/:jarid`). Shared by the app's service and the CLI.
 */

/** Uploads take as long as the bytes need: a few MiB over a slow link outlast a read's deadline. */
export const UPLOAD_TIMEOUT_MS = 120_000;

/** `flink-job-1.0.jar`: a plain file name ending in `.jar` (Flink refuses any other). */
export function checkJarName(fileName: string): string {
  const name = fileName.trim();
  if (name === '' || /[/\\\0]/.test(name)) throw new EngineError('invalid-input', `"${name.slice(0, 200)}" must be a file name only, without a folder.`);
  if (!name.toLowerCase().endsWith('.jar')) throw new EngineError('invalid-input', `Only jar files can be uploaded: "${name.slice(0, 200)}" does not end in .jar.`);
  return name;
}

/** A jar id as `GET /jars` lists it: a file name, never a path. */
export function checkJarId(jarId: string): string {
  if (typeof jarId !== 'string' || jarId.trim() === '' || /[/\\\0]/.test(jarId) || jarId === '.' || jarId === '..') {
    throw new EngineError('invalid-input', `"${String(jarId).slice(0, 200)}" is not a jar id (the file name \`GET /jars\` lists, e.g. 1b2c…_job.jar).`);
  }
  return jarId;
}

export async function listJars(client: FlinkRestClient): Promise<JarList> {
  let features;
  try {
    features = (await client.request(operationEndpoints.dashboardFeatures)).features;
  } catch {
    features = undefined;
  }
  if (features?.['web-submit'] === false) {
    return { jars: [], unavailable: 'This cluster does not accept jar uploads or runs (web.submit.enable is false): submit with `flink run` instead.' };
  }
  try {
    const body = await client.request(operationEndpoints.jars);
    return {
      jars: body.files
        .map((f) => ({ id: f.id, name: f.name, uploaded: f.uploaded ?? null, entryClasses: (f.entry ?? []).map((e) => e.name) }))
        .sort((a, b) => (b.uploaded ?? 0) - (a.uploaded ?? 0)),
      unavailable: null,
    };
  } catch (error) {
    if (error instanceof EngineError && [403, 404, 405].includes(error.info.status ?? 0)) {
      return { jars: [], unavailable: `This cluster has no jar endpoints (GET /jars answered ${error.info.status}): an application cluster, or web submission is off.` };
    }
    throw error;
  }
}

/** Uploads and returns the jar as the cluster now lists it. */
export async function uploadJar(client: FlinkRestClient, fileName: string, bytes: Buffer): Promise<JarInfo> {
  const name = checkJarName(fileName);
  if (bytes.length === 0) throw new EngineError('invalid-input', `${name} is empty.`);
  if (bytes.length > MAX_JAR_UPLOAD_BYTES) throw new EngineError('invalid-input', `${name} is ${bytes.length} bytes, more than Flink's default rest.server.max-content-length (${MAX_JAR_UPLOAD_BYTES}).`);
  const form = new FormData();
  form.append('jarfile', new Blob([new Uint8Array(bytes)], { type: 'application/x-java-archive' }), name);
  const answer = await client.request(operationEndpoints.uploadJar, {}, undefined, { body: form, timeoutMs: UPLOAD_TIMEOUT_MS });
  const id = answer.filename.split(/[/\\]/).pop() ?? '';
  if (answer.status !== undefined && answer.status !== 'success') throw new EngineError('unexpected-response', `The cluster answered the upload of ${name} with status "${answer.status}".`);
  const listed = (await listJars(client)).jars.find((j) => j.id === id);
  return listed ?? { id, name, uploaded: null, entryClasses: [] };
}

export async function deleteJar(client: FlinkRestClient, jarId: string): Promise<void> {
  await client.request(operationEndpoints.deleteJar, { jarid: checkJarId(jarId) });
}
