import { inflateRawSync } from 'node:zlib';

/**
 * The `Main-Class` of a jar's `META-INF/MANIFEST.MF`, read from the zip's central directory (no extraction): what Flink
 * lists as a jar's entry class. null when the jar has no manifest or no main class; a file that is not a zip throws.
 */

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const MANIFEST = 'META-INF/MANIFEST.MF';
/** A manifest is a few KiB; a larger one is not read (a zip bomb must not cost memory). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

export class NotAJarError extends Error {}

function endOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of up to 64 KiB, at the very end.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new NotAJarError('not a zip archive (no end of central directory)');
}

function manifestBytes(zip: Buffer): Buffer | null {
  const end = endOfCentralDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_FILE_HEADER) throw new NotAJarError('a broken central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (name === MANIFEST) {
      if (size > MAX_MANIFEST_BYTES || local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_FILE_HEADER) throw new NotAJarError('an unreadable manifest');
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + compressed);
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data, { maxOutputLength: MAX_MANIFEST_BYTES });
      throw new NotAJarError(`a manifest compressed with method ${method}`);
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  return null;
}

/** The manifest's main attributes (continuation lines joined). */
export function manifestAttributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let last: string | null = null;
  for (const line of lines) {
    if (line === '') break; // the main section ends at the first blank line
    if (line.startsWith(' ') && last !== null) out.set(last, out.get(last)! + line.slice(1));
    else {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      last = line.slice(0, colon).trim();
      out.set(last, line.slice(colon + 1).trim());
    }
  }
  return out;
}

export function jarMainClass(zip: Buffer): string | null {
  const bytes = manifestBytes(zip);
  if (!bytes) return null;
  const attributes = manifestAttributes(bytes.toString('utf8'));
  // Flink's PackagedProgram prefers `program-class` (its own attribute) over `Main-Class`.
  return attributes.get('program-class') ?? attributes.get('Main-Class') ?? null;
}
