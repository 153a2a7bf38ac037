import type { ShellApi } from '../../engine/contracts/shell-api';
import { toErrorInfo } from '../components/errors';
import { showToast, type ToastTone } from '../components/toasts';
import { appShell } from './shell';

export interface NotifyDeps {
  shell: Pick<ShellApi, 'notify'>;
  /** True when the user is looking elsewhere: another window, another tab, minimised. */
  inBackground(): boolean;
  toast(toast: { tone: ToastTone; title: string; body?: string }): void;
}

export interface NotifyOptions<T> {
  /** A line about the result, e.g. "Saved to /home/ops/report.csv". */
  describe?(value: T): string | undefined;
}

/**
 * Tells the user when a long operation (savepoint, rescale, an export) finishes or fails: a system
 * notification when the console is in the background, else (or when the system shows none) a toast.
 * Returns the operation's own result or rejection, untouched, for the caller to use.
 *
 *   await notifyWhenDone(api.triggerSavepoint(...), 'Savepoint of gatewaymeter');
 */
export async function notifyWhenDone<T>(
  work: Promise<T>,
  what: string,
  options: NotifyOptions<T> = {},
  deps: NotifyDeps = browserDeps(),
): Promise<T> {
  try {
    const value = await work;
    await deliver({ tone: 'success', title: `${what} finished`, body: options.describe?.(value) }, deps);
    return value;
  } catch (error) {
    await deliver({ tone: 'error', title: `${what} failed`, body: toErrorInfo(error).message }, deps);
    throw error;
  }
}

async function deliver(message: { tone: ToastTone; title: string; body?: string }, deps: NotifyDeps): Promise<void> {
  if (deps.inBackground()) {
    const shown = await deps.shell.notify({ title: message.title, body: message.body }).catch(() => false);
    if (shown) return;
  }
  deps.toast(message);
}

function browserDeps(): NotifyDeps {
  return {
    shell: appShell(),
    inBackground: () => document.visibilityState !== 'visible' || !document.hasFocus(),
    toast: showToast,
  };
}
