import { crc32 } from 'node:zlib';

/**
 * A minimal jar (a zip of stored entries with a manifest): what the tests and the demo upload to the local engine,
 * whose built-in jobs it names as its `Main-Class`.
 */
export function buildJar(mainClass: string | null, extra: Record<string, string> = {}): Buffer {
  const manifest = `Manifest-Version: 1.0\r\nCreated-By: flink-ops\r\n${mainClass ? `Main-Class: ${mainClass}\r\n` : ''}\r\n`;
  const entries = Object.entries({ 'META-INF/MANIFEST.MF': manifest, ...extra }).map(([name, text]) => ({ name: Buffer.from(name), data: Buffer.from(text) }));
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(10, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
