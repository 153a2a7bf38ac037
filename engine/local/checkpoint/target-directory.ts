import { accessSync, constants, mkdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the engine may write a folder someone named (a savepoint's target directory, a checkpoint folder, a sink
 * folder): checked before anything touches the disk, so a hostile or mistyped path fails that one operation with a
 * message instead of hanging the engine (Node's recursive `mkdir` loops forever under `/proc`) or writing into the
 * working directory. A target must be absolute (paths given over REST; the CLI resolves its own options first), at
 * most {@link MAX_PATH_CHARS} characters with components of at most 255 bytes, outside the kernel's pseudo file
 * systems, and an existing writable folder or creatable under one. Folders are then created one level at a time.
 * A folder named over REST must in addition lie under one of the engine's {@link AllowedFolders}.
 */

/** Linux's PATH_MAX. */
export const MAX_PATH_CHARS = 4096;
/** Linux's NAME_MAX, in bytes. */
const MAX_NAME_BYTES = 255;
/** Pseudo file systems: nothing there is storage, and some of it loops or blocks. */
export const FORBIDDEN_ROOTS = ['/proc', '/sys', '/dev'] as const;

/** A target folder the engine refuses or cannot create: the message names the path and why (`reason` alone). */
export class TargetDirectoryError extends Error {
  constructor(
    readonly target: string,
    what: string,
    readonly reason: string,
  ) {
    // Flink: "Failed to create savepoint directory at <dir>".
    super(`Failed to create the ${what} at ${target}: ${reason}.`);
    this.name = 'java.io.IOException';
  }
}

function isUnder(target: string, root: string): boolean {
  return target === root || target.startsWith(root.endsWith('/') ? root : `${root}/`);
}

function forbiddenRoot(target: string): string | undefined {
  return FORBIDDEN_ROOTS.find((root) => isUnder(target, root));
}

/**
 * The absolute local path a pointer names (`file:` URI or plain path), without touching the disk. Relative paths are
 * refused unless `relativeTo` is given (the CLI passes its working directory).
 */
export function resolveTargetPath(raw: string, what: string, relativeTo?: string): string {
  const refuse = (reason: string) => new TargetDirectoryError(raw.length > 200 ? `${raw.slice(0, 200)}…` : raw, what, reason);
  if (raw.trim() === '') throw refuse('Can not create a Path from an empty string');
  if (raw.length > MAX_PATH_CHARS) throw refuse(`the path is ${raw.length} characters long; the limit is ${MAX_PATH_CHARS}`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw refuse('the path contains control characters');
  let local: string;
  if (/^file:/i.test(raw)) {
    try {
      local = fileURLToPath(raw.replace(/^file:\/*/i, 'file:///'));
    } catch (error) {
      throw refuse(`not a valid file: URI (${(error as Error).message})`);
    }
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw refuse('the local engine writes to the local file system only (a path or a file: URI)');
  } else if (path.isAbsolute(raw)) {
    local = raw;
  } else if (relativeTo !== undefined) {
    local = path.resolve(relativeTo, raw);
  } else {
    throw refuse('the path is relative; give an absolute path (the engine never writes relative to its working directory)');
  }
  const resolved = path.resolve(local);
  const longName = resolved.split('/').find((part) => Buffer.byteLength(part) > MAX_NAME_BYTES);
  if (longName !== undefined) throw refuse(`a path component is ${Buffer.byteLength(longName)} bytes long; the limit is ${MAX_NAME_BYTES}`);
  const root = forbiddenRoot(resolved);
  if (root !== undefined) throw new TargetDirectoryError(resolved, what, `the local engine does not write under ${root}`);
  return resolved;
}

/**
 * Checks and creates a folder the engine will write into; returns its absolute path. Throws
 * {@link TargetDirectoryError} (nothing created) when the path is refused, not a folder, or not writable.
 */
export function prepareTargetDirectory(raw: string, what: string, relativeTo?: string): string {
  const target = resolveTargetPath(raw, what, relativeTo);
  const refuse = (reason: string) => new TargetDirectoryError(target, what, reason);
  const missing: string[] = [];
  let existing = target;
  for (;;) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(existing).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw refuse(`${existing} cannot be read (${code ?? (error as Error).message})`);
      missing.unshift(existing);
      existing = path.dirname(existing);
      continue;
    }
    if (!isDirectory) throw refuse(`${existing} is not a folder`);
    break;
  }
  // A symbolic link may lead where a plain path may not.
  const real = realpathSync(existing);
  const root = forbiddenRoot(real);
  if (root !== undefined) throw refuse(`${existing} leads to ${real}, and the local engine does not write under ${root}`);
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw refuse(`${existing} is not writable (${(error as NodeJS.ErrnoException).code ?? 'EACCES'})`);
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw refuse(`creating ${folder} failed (${code ?? (error as Error).message})`);
    }
  }
  return target;
}

/**
 * `target` with the symbolic links of its existing part resolved, the rest as given: where a write would land. A
 * dangling link leads somewhere too (where a folder created through it would appear), so it is followed as well.
 */
export function realPathOf(target: string, hops = 0): string {
  const rest: string[] = [];
  let existing = target;
  for (;;) {
    try {
      return path.join(realpathSync(existing), ...rest);
    } catch {
      const link = linkTargetOf(existing);
      if (link !== undefined && hops < MAX_LINK_HOPS) return path.join(realPathOf(path.resolve(path.dirname(existing), link), hops + 1), ...rest);
      const parent = path.dirname(existing);
      if (parent === existing) return target;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/** As the kernel's ELOOP limit: a loop of links leads nowhere. */
const MAX_LINK_HOPS = 40;

function linkTargetOf(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The folders the engine may write into when a request names one (a savepoint's target directory, the sink or
 * checkpoint folder of a jar run): those it was started with (`--checkpoint-dir`, whose `savepoints/` is the default
 * savepoint folder, `--sink-dir`, the configured savepoint and checkpoint folders) and those the operator allowed
 * (`--allow-dir`). Anything else is refused, so whoever can reach the REST API cannot plant folders in `/etc` or
 * `~/.ssh`. Symbolic links are followed: a link inside an allowed folder that leads out of it is refused.
 */
export class AllowedFolders {
  readonly roots: readonly string[];

  constructor(roots: ReadonlyArray<string | undefined>) {
    this.roots = [...new Set(roots.filter((r): r is string => r !== undefined).map((r) => path.resolve(r)))];
  }

  /** Throws {@link TargetDirectoryError} unless the absolute `target` lies under one of the roots, links followed. */
  check(target: string, what: string): void {
    const real = realPathOf(target);
    const forbidden = forbiddenRoot(real);
    if (forbidden !== undefined) throw new TargetDirectoryError(target, what, `${target} leads to ${real}, and the local engine does not write under ${forbidden}`);
    if (this.roots.some((root) => isUnder(real, realPathOf(root)))) return;
    const reason =
      this.roots.length === 0
        ? 'the local engine writes only under the folders it was started with, and it was started with none (start it with --checkpoint-dir or --allow-dir DIR)'
        : `the local engine writes only under ${this.roots.join(', ')}${real !== target ? ` (${target} leads to ${real})` : ''}; start it with --allow-dir DIR to allow another folder`;
    throw new TargetDirectoryError(target, what, reason);
  }
}
