import type { ShellApi } from '../../engine/contracts/shell-api';
import { createShellClient } from '../api/shell-client';

let instance: ShellApi | null = null;

/** The ShellApi of wherever the page runs (desktop shell or browser), created on first use. */
export function appShell(): ShellApi {
  instance ??= createShellClient();
  return instance;
}
