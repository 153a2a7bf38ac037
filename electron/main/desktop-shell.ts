import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dialog, nativeTheme, Notification, type BrowserWindow, type FileFilter } from 'electron';
import { INCIDENT_BUNDLE } from '../../engine/contracts/incident-bundle.ts';
import type { ShellApi, ThemePreference } from '../../engine/contracts/shell-api.ts';
import type { KeyValueBackend } from '../../engine/clusters/cluster-store.ts';
import type { LogFileDownloads } from '../../engine/logs/log-download.ts';

/** Key in config.json: the theme chosen in the page, applied to native parts before the page loads. */
export const THEME_KEY = 'theme';

const FILTERS: Record<string, FileFilter> = {
  'text/csv': { name: 'CSV', extensions: ['csv'] },
  'application/json': { name: 'JSON', extensions: ['json'] },
  'text/markdown': { name: 'Markdown', extensions: ['md'] },
  'text/plain': { name: 'Text', extensions: ['txt', 'log'] },
  [INCIDENT_BUNDLE.mimeType]: { name: INCIDENT_BUNDLE.description, extensions: [INCIDENT_BUNDLE.extension] },
};

/** Windows refuses these in file names; a timestamp like 03:12 is common in a suggested name. */
export function portableFileName(name: string): string {
  return name.replace(/[<>:"|?*]/g, '-');
}

export function saveDialogFilters(mime: string): FileFilter[] {
  const filter = FILTERS[mime];
  return [...(filter ? [filter] : []), { name: 'All Files', extensions: ['*'] }];
}

export interface DesktopShellDeps {
  /** The main window, to attach dialogs to and to focus when a notification is clicked. */
  window(): BrowserWindow | null;
  store: KeyValueBackend;
  /** The folder the save dialog starts in (the user's downloads). */
  defaultFolder(): string;
  /** The engine's whole-file log downloads: the shell asks where, the engine streams the file there. */
  logFiles: Pick<LogFileDownloads, 'save'>;
}

/** The ShellApi in Electron: native notifications, save dialogs and theme. Arguments arrive validated (shell-ipc.ts). */
export function createDesktopShell(deps: DesktopShellDeps): ShellApi {
  /** The save dialog, attached to the window, starting in the downloads folder; null when cancelled. */
  const askWhere = async (suggestedName: string, mime: string): Promise<string | null> => {
    const options = { defaultPath: path.join(deps.defaultFolder(), portableFileName(suggestedName)), filters: saveDialogFilters(mime) };
    const window = deps.window();
    const choice = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
    return choice.canceled || !choice.filePath ? null : choice.filePath;
  };
  return {
    async notify({ title, body }) {
      if (!Notification.isSupported()) return false;
      const notification = new Notification({ title, body: body ?? '' });
      notification.on('click', () => {
        const window = deps.window();
        if (!window) return;
        if (window.isMinimized()) window.restore();
        window.focus();
      });
      notification.show();
      return true;
    },

    async saveFile({ suggestedName, content, mime }) {
      const target = await askWhere(suggestedName, mime);
      if (target === null) return { saved: false };
      await writeFile(target, content);
      return { saved: true, location: target };
    },

    async saveLogFile({ suggestedName, ...request }) {
      const target = await askWhere(suggestedName, 'text/plain');
      if (target === null) return { saved: false };
      await deps.logFiles.save(request, target);
      return { saved: true, location: target };
    },

    async setTheme(preference) {
      applyTheme(preference);
      deps.store.set(THEME_KEY, preference);
    },
  };
}

/** Native menus, dialogs and the page's `prefers-color-scheme` follow this. */
export function applyTheme(preference: ThemePreference): void {
  nativeTheme.themeSource = preference;
}

export function storedTheme(store: KeyValueBackend): ThemePreference {
  const value = store.get(THEME_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}
