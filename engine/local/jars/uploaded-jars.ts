import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILT_IN_JARS, type BuiltInJar } from './built-in-jars.ts';
import { jarMainClass, NotAJarError } from './jar-manifest.ts';

/**
 * Jars uploaded to the local engine (`POST /jars/upload`), kept as Flink keeps them: in one folder (Flink's
 * `web.upload.dir`, else a fresh folder under the temp dir), each as `<uuid>_<original name>`, that name being its jar
 * id. Only plain file names ending in `.jar` are taken: no folder part, no dot files, no characters a shell or a path
 * could read differently. A jar runs when its main class is a built-in job's entry class (the engine runs no Java).
 */

export interface UploadedJar {
  id: string;
  name: string;
  uploaded: number;
  /** The manifest's main class, null when it has none. */
  entryClass: string | null;
  /** The built-in job it runs as, when its main class is one. */
  builtIn: BuiltInJar | null;
}

export class JarUploadError extends Error {}

/** A name Flink would keep and a path cannot misread. */
const JAR_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,199}\.jar$/;
const JAR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_[A-Za-z0-9][A-Za-z0-9._+-]{0,199}\.jar$/;

export function checkJarFileName(name: string): string {
  if (name.includes('/') || name.includes('\\') || name.includes('\0')) throw new JarUploadError(`The file name "${name.slice(0, 200)}" must be a file name only, without a folder.`);
  if (!name.endsWith('.jar')) throw new JarUploadError('Only Jar files are allowed.');
  if (!JAR_NAME.test(name) || name.includes('..')) throw new JarUploadError(`The file name "${name.slice(0, 200)}" may hold only letters, digits, ".", "_", "+" and "-", and must not start with a dot.`);
  return name;
}

export class UploadedJars {
  private dir: string | undefined;
  private readonly jars = new Map<string, UploadedJar>();

  /** `dir`: Flink's `web.upload.dir`; undefined = a folder of its own under the temp dir, made on the first upload. */
  constructor(private readonly configuredDir?: string) {}

  /** The folder the jars are kept in (made when first needed). */
  folder(): string {
    if (!this.dir) {
      if (this.configuredDir) {
        mkdirSync(this.configuredDir, { recursive: true });
        this.dir = this.configuredDir;
      } else this.dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'flink-web-')), 'flink-web-upload');
      mkdirSync(this.dir, { recursive: true });
    }
    return this.dir;
  }

  /** Keeps a jar; its manifest is read first, so a file that is not a jar is refused and nothing is written. */
  add(fileName: string, bytes: Buffer, now: number): UploadedJar {
    checkJarFileName(fileName);
    let entryClass: string | null;
    try {
      entryClass = jarMainClass(bytes);
    } catch (error) {
      if (error instanceof NotAJarError) throw new JarUploadError(`${fileName} is not a jar: ${error.message}.`);
      throw error;
    }
    const id = `${randomUUID()}_${fileName}`;
    writeFileSync(path.join(this.folder(), id), bytes, { flag: 'wx' });
    const jar: UploadedJar = { id, name: fileName, uploaded: now, entryClass, builtIn: BUILT_IN_JARS.find((j) => j.entryClass === entryClass) ?? null };
    this.jars.set(id, jar);
    return jar;
  }

  get(id: string): UploadedJar | undefined {
    return JAR_ID.test(id) ? this.jars.get(id) : undefined;
  }

  list(): UploadedJar[] {
    return [...this.jars.values()].sort((a, b) => b.uploaded - a.uploaded || a.id.localeCompare(b.id));
  }

  /** Deletes a jar; false when there is none by that id. */
  remove(id: string): boolean {
    const jar = this.get(id);
    if (!jar) return false;
    const file = path.join(this.folder(), jar.id);
    // The id passed the pattern: it names a file directly in the folder, never elsewhere.
    if (path.dirname(file) !== this.folder()) return false;
    rmSync(file, { force: true });
    this.jars.delete(id);
    return true;
  }

  /** The stored file of a jar (tests, and the upload answer's `filename`). */
  fileOf(id: string): string {
    return path.join(this.folder(), id);
  }

  /** Files in the folder (tests: a delete removes the file). */
  files(): string[] {
    return this.dir ? readdirSync(this.dir).filter((f) => statSync(path.join(this.dir!, f)).isFile()) : [];
  }

  read(id: string): Buffer | undefined {
    const jar = this.get(id);
    return jar ? readFileSync(this.fileOf(jar.id)) : undefined;
  }
}
