import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildJar } from '../jars/jar-file.ts';
import { jarMainClass, manifestAttributes } from '../jars/jar-manifest.ts';
import { validateAgainstSpec } from '../rest-spec/validate-against-spec.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';

/**
 * The local engine's jar upload and delete and its savepoint disposal in Flink's shape, and what it refuses: path
 * tricks in a file name or a jar id, a file that is not a jar, a disposal outside the folders it may write.
 */
const root = mkdtempSync(path.join(os.tmpdir(), 'le-jars-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let handle: LocalEngineHandle;

beforeAll(async () => {
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_617_000), checkpointDir: path.join(root, 'cp'), uploadDir: path.join(root, 'uploads') });
});
afterAll(() => handle.close());

function multipart(parts: Array<{ name: string; fileName?: string; bytes: Buffer }>): { body: Blob; type: string } {
  const boundary = '----flinkops0123456789';
  const chunks = parts.flatMap((p) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.fileName !== undefined ? `; filename="${p.fileName}"` : ''}\r\nContent-Type: application/x-java-archive\r\n\r\n`),
    p.bytes,
    Buffer.from('\r\n'),
  ]);
  return { body: new Blob([new Uint8Array(Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]))]), type: `multipart/form-data; boundary=${boundary}` };
}

async function upload(parts: Array<{ name: string; fileName?: string; bytes: Buffer }>): Promise<{ status: number; body: { filename?: string; errors?: string[] } }> {
  const { body, type } = multipart(parts);
  const response = await fetch(`${handle.url}/jars/upload`, { method: 'POST', body, headers: { 'content-type': type } });
  return { status: response.status, body: (await response.json()) as { filename?: string; errors?: string[] } };
}

describe('jar manifest', () => {
  it('reads Main-Class from a stored or a deflated manifest, continuation lines joined', () => {
    expect(jarMainClass(buildJar('org.flinkops.local.GatewayMeterJob'))).toBe('org.flinkops.local.GatewayMeterJob');
    expect(jarMainClass(buildJar(null))).toBeNull();
    expect(manifestAttributes('Manifest-Version: 1.0\r\nMain-Class: com.example.VeryLongName\r\n Continued\r\n\r\nName: x\r\nMain-Class: no\r\n').get('Main-Class')).toBe('com.example.VeryLongNameContinued');
    // A deflated manifest: rewrite the stored jar's entry as method 8.
    const manifest = Buffer.from('Manifest-Version: 1.0\r\nprogram-class: com.example.Prog\r\nMain-Class: com.example.Main\r\n\r\n');
    const deflated = deflateRawSync(manifest);
    const jar = buildJar(null, {});
    const name = Buffer.from('META-INF/MANIFEST.MF');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(manifest.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(manifest.length, 24);
    central.writeUInt16LE(name.length, 28);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(46 + name.length, 12);
    end.writeUInt32LE(30 + name.length + deflated.length, 16);
    expect(jarMainClass(Buffer.concat([local, name, deflated, central, name, end]))).toBe('com.example.Prog');
    expect(jar.length).toBeGreaterThan(0);
    expect(() => jarMainClass(Buffer.from('not a zip at all, just text'))).toThrow(/not a zip/);
  });
});

describe('POST /jars/upload and DELETE /jars/:jarid', () => {
  it('keeps the jar as <uuid>_<name> in its upload folder, answers JarUploadResponseBody, lists it; delete removes the file', async () => {
    const answer = await upload([{ name: 'jarfile', fileName: 'job-1.0.jar', bytes: buildJar('org.flinkops.local.GatewayMeterJob') }]);
    expect(answer.status).toBe(200);
    expect(validateAgainstSpec('POST', '/jars/upload', 200, answer.body)).toEqual([]);
    expect(answer.body).toMatchObject({ status: 'success' });
    expect(path.dirname(answer.body.filename!)).toBe(path.join(root, 'uploads'));
    const id = path.basename(answer.body.filename!);
    expect(id).toMatch(/^[0-9a-f-]{36}_job-1\.0\.jar$/);
    expect(existsSync(answer.body.filename!)).toBe(true);
    const list = (await (await fetch(`${handle.url}/jars`)).json()) as { files: Array<{ id: string; entry: Array<{ name: string }> }> };
    expect(list.files[0]).toMatchObject({ id, entry: [{ name: 'org.flinkops.local.GatewayMeterJob' }] });
    const deleted = await fetch(`${handle.url}/jars/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(existsSync(answer.body.filename!)).toBe(false);
    const again = await fetch(`${handle.url}/jars/${id}`, { method: 'DELETE' });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { errors: string[] }).errors[0]).toMatch(/does not exist in/);
  });

  it('refuses path tricks, a file that is not a jar, no file or two files, and writes nothing', async () => {
    for (const fileName of ['../evil.jar', '..%2Fevil.jar', '/etc/evil.jar', '.hidden.jar', 'a b.jar', 'evil.sh', 'x\\..\\evil.jar']) {
      const r = await upload([{ name: 'jarfile', fileName, bytes: buildJar(null) }]);
      expect(r.status, fileName).toBe(400);
    }
    expect((await upload([{ name: 'jarfile', fileName: 'text.jar', bytes: Buffer.from('hello') }])).body.errors![0]).toMatch(/is not a jar/);
    expect((await upload([{ name: 'note', bytes: Buffer.from('x') }])).body.errors![0]).toMatch(/Exactly 1 file must be sent, received 0/);
    const two = await upload([
      { name: 'jarfile', fileName: 'a.jar', bytes: buildJar(null) },
      { name: 'jarfile', fileName: 'b.jar', bytes: buildJar(null) },
    ]);
    expect(two.body.errors![0]).toMatch(/received 2/);
    expect(handle.engine.uploadedJars.files()).toEqual([]);
    // Multipart is taken on the upload path only: elsewhere a write must be JSON.
    const { body, type } = multipart([{ name: 'jarfile', fileName: 'a.jar', bytes: buildJar(null) }]);
    expect((await fetch(`${handle.url}/jars/x.jar/run`, { method: 'POST', body, headers: { 'content-type': type } })).status).toBe(415);
    // (`%2E%2E` reaches the server as `/jars/..` → `/`, a 404: nothing is deleted either way.)
    for (const id of ['..%2F..%2Fcp', '%2E%2E', 'local-engine_gatewaymeter.jar']) expect([400, 404], id).toContain((await fetch(`${handle.url}/jars/${id}`, { method: 'DELETE' })).status);
    expect(existsSync(path.join(root, 'cp'))).toBe(true);
  });
});

describe('POST /savepoint-disposal', () => {
  async function dispose(pointer: string): Promise<{ status: { id: string }; operation?: { 'failure-cause'?: { 'stack-trace': string } } }> {
    const trigger = await fetch(`${handle.url}/savepoint-disposal`, { method: 'POST', body: JSON.stringify({ 'savepoint-path': pointer }), headers: { 'content-type': 'application/json' } });
    const { 'request-id': id } = (await trigger.json()) as { 'request-id': string };
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const first = await (await fetch(`${handle.url}/savepoint-disposal/${id}`)).json();
    expect(first).toEqual({ status: { id: 'IN_PROGRESS' } });
    handle.engine.advance(1_000);
    const status = await (await fetch(`${handle.url}/savepoint-disposal/${id}`)).json();
    expect(validateAgainstSpec('GET', '/savepoint-disposal/:triggerid', 200, status)).toEqual([]);
    return status as never;
  }

  function fakeSavepoint(dir: string): string {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '_metadata'), '{}');
    return `file:${dir}`;
  }

  it('deletes a savepoint folder under its checkpoint dir; a second disposal finds nothing, in Flink\'s words', async () => {
    const dir = path.join(root, 'cp', 'savepoints', 'savepoint-abcdef-0123456789ab');
    const pointer = fakeSavepoint(dir);
    expect(await dispose(pointer)).toEqual({ status: { id: 'COMPLETED' }, operation: {} });
    expect(existsSync(dir)).toBe(false);
    expect((await dispose(pointer)).operation?.['failure-cause']?.['stack-trace']).toMatch(/^java\.io\.FileNotFoundException: Cannot find checkpoint or savepoint file\/directory/);
  });

  it('refuses a folder outside the folders it may write, a storage root, and a relative trick; unknown triggers are 404', async () => {
    const outside = path.join(root, 'elsewhere', 'savepoint-1');
    const pointer = fakeSavepoint(outside);
    expect((await dispose(pointer)).operation?.['failure-cause']?.['stack-trace']).toMatch(/Refusing to dispose/);
    expect(existsSync(outside)).toBe(true);
    expect((await dispose(`${path.join(root, 'cp', 'savepoints')}/../../elsewhere/savepoint-1`)).operation?.['failure-cause']).toBeDefined();
    expect(existsSync(outside)).toBe(true);
    writeFileSync(path.join(root, 'cp', '_metadata'), '{}');
    expect((await dispose(`file:${path.join(root, 'cp')}`)).operation?.['failure-cause']?.['stack-trace']).toMatch(/storage root/);
    expect(existsSync(path.join(root, 'cp'))).toBe(true);
    expect((await fetch(`${handle.url}/savepoint-disposal/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await fetch(`${handle.url}/savepoint-disposal`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(400);
  });
});
