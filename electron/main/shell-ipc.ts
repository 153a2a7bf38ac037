import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import type { BridgeResponse } from '../../engine/contracts/engine-api.ts';
import { SAVE_FILE_LIMITS, SHELL_METHODS, THEME_PREFERENCES, type ShellApi, type ShellMethod } from '../../engine/contracts/shell-api.ts';
import { LOG_FILE_REF } from '../../engine/contracts/logs-calls.ts';
import { EngineError } from '../../engine/flink-rest/errors.ts';
import { SHELL_CHANNEL } from '../common/shell-channel.ts';
import { isFromTrustedPage } from './ipc.ts';

/** No folders, no control characters, not `.` or `..`: the user picks the folder in the dialog. */
const FileName = z
  .string()
  .min(1)
  .max(SAVE_FILE_LIMITS.maxNameLength)
  .refine((name) => !/[/\\\p{Cc}]/u.test(name) && name !== '.' && name !== '..', 'must be a plain file name');

const Content = z
  .union([z.string(), z.instanceof(Uint8Array)])
  .refine((content) => (typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength) <= SAVE_FILE_LIMITS.maxBytes, {
    message: `is larger than ${SAVE_FILE_LIMITS.maxBytes / 1024 / 1024} MiB`,
  });

/** Each method's argument list, checked before the shell sees it. */
const ARGUMENTS: Record<ShellMethod, z.ZodType> = {
  notify: z.tuple([z.object({ title: z.string().min(1).max(200), body: z.string().max(1000).optional() }).strict()]),
  saveFile: z.tuple([
    z
      .object({ suggestedName: FileName, content: Content, mime: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type') })
      .strict(),
  ]),
  saveLogFile: z.tuple([z.object({ suggestedName: FileName, clusterId: z.string().min(1).max(256), processId: z.string().min(1).max(256), file: LOG_FILE_REF }).strict()]),
  setTheme: z.tuple([z.enum(THEME_PREFERENCES)]),
};

/**
 * The shell's side of the bridge: refuses methods outside SHELL_METHODS and arguments of the wrong shape
 * before the shell sees them, and turns failures into data the page can show.
 */
export async function dispatchShellCall(shell: ShellApi, method: unknown, args: unknown): Promise<BridgeResponse> {
  if (typeof method !== 'string' || !(SHELL_METHODS as readonly string[]).includes(method)) {
    return invalid(`Unknown shell call "${String(method)}".`);
  }
  const parsed = ARGUMENTS[method as ShellMethod].safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(`Arguments of "${method}" are not valid: ${issue.path.length > 0 ? `${issue.path.join('.')} ` : ''}${issue.message}.`);
  }
  try {
    const call = shell[method as ShellMethod] as (...a: unknown[]) => Promise<unknown>;
    const value = await call.apply(shell, parsed.data as unknown[]);
    return { ok: true, value: value ?? null };
  } catch (error) {
    // A failed download says what the cluster did (unreachable, too slow, cut off), as the engine's calls do.
    if (error instanceof EngineError) return { ok: false, error: error.info };
    return { ok: false, error: { kind: 'internal', message: error instanceof Error ? error.message : String(error) } };
  }
}

/** Wires the shell's channel, for the app's own page only. Returns a function that unwires it. */
export function registerShellIpc(shell: ShellApi, trustedPageUrl: string): () => void {
  ipcMain.handle(SHELL_CHANNEL, async (event: IpcMainInvokeEvent, method: unknown, args: unknown): Promise<BridgeResponse> => {
    if (!isFromTrustedPage(event, trustedPageUrl)) {
      return { ok: false, error: { kind: 'forbidden', message: 'Shell calls are accepted only from the console\'s own page.' } };
    }
    return dispatchShellCall(shell, method, args);
  });
  return () => ipcMain.removeHandler(SHELL_CHANNEL);
}

function invalid(message: string): BridgeResponse {
  return { ok: false, error: { kind: 'invalid-input', message } };
}
