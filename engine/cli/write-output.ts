import { accessSync, closeSync, constants, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CliError, EXIT } from './cli-error.ts';

/**
 * Fails early (before minutes of sampling) when `--out` cannot be written: its folder missing or read-only, or the
 * path a folder.
 */
export function checkWritable(file: string): void {
  const dir = path.dirname(path.resolve(file));
  try {
    if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw Object.assign(new Error('it is a folder'), { code: 'EISDIR' });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new CliError(EXIT.failure, `Cannot write ${file}: ${reason(error)}.`);
  }
}

/**
 * Writes the whole file or nothing: into a temporary file beside it, then a rename (atomic on one file system), so a
 * reader never sees half a report and a failure leaves no partial file. Pieces are written as they come (a big
 * report is never held whole).
 */
export function writeAtomically(file: string, content: string | Buffer | Iterable<string>): void {
  const target = path.resolve(file);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    const fd = openSync(temp, 'w');
    try {
      if (typeof content === 'string' || Buffer.isBuffer(content)) writeFileSync(fd, content);
      else for (const chunk of content) writeFileSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw writeFailure(file, error);
  }
}

/** A failure to write `file` as one line (exit 1); anything that is no file system error, as it is. */
export function writeFailure(file: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code === undefined || typeof (error as NodeJS.ErrnoException).syscall !== 'string') return error;
  return new CliError(EXIT.failure, `Cannot write ${file}: ${reason(error)}.`);
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ENOENT: 'its folder does not exist',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the file system is read-only',
    EISDIR: 'it is a folder',
    ENOSPC: 'no space left on the device',
  };
  return (code && words[code]) ?? (error as Error).message;
}
