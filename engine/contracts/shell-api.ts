/**
 * What the page asks of the program around it, beside the engine: the desktop shell (native
 * notifications, save dialogs, the OS theme) or, in web mode, the browser. Plain JSON data both ways,
 * like the EngineApi; the desktop bridge checks every call against SHELL_METHODS on both sides.
 */

import type { LogFileRequest } from './logs.ts';

export type ThemePreference = 'system' | 'light' | 'dark';
export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const satisfies readonly ThemePreference[];

export interface NotifyRequest {
  /** One line: what finished or failed, e.g. "Savepoint of gatewaymeter completed". */
  title: string;
  body?: string;
}

export interface SaveFileRequest {
  /** A file name without folders, e.g. `skew-report-2026-11-30.csv`; the user may change it. */
  suggestedName: string;
  content: string | Uint8Array;
  /** e.g. `text/csv`; picks the dialog's filter and the download's type. */
  mime: string;
}

/** A whole log file to save where the user says: streamed from the cluster, never through the page. */
export interface SaveLogFileRequest extends LogFileRequest {
  /** A file name without folders (see `logDownloadName`); the user may change it. */
  suggestedName: string;
}

/** `location`: the file written (desktop) or "your downloads folder" (web mode, where the browser decides). */
export type SaveFileResult = { saved: true; location: string } | { saved: false };

export interface ShellApi {
  /** A system notification. False when none could be shown: the caller shows it in the page instead. */
  notify(request: NotifyRequest): Promise<boolean>;
  /** Asks where to save (desktop) or downloads (web mode). `{ saved: false }` when the user cancelled. */
  saveFile(request: SaveFileRequest): Promise<SaveFileResult>;
  /**
   * Saves a whole log file of a cluster's process: a save dialog, then the engine streams it there (desktop), or a
   * streamed download from the web-mode server (web mode). `{ saved: false }` when the user cancelled.
   */
  saveLogFile(request: SaveLogFileRequest): Promise<SaveFileResult>;
  /** The user's theme choice, so native parts (menus, dialogs, title bar) follow it too. */
  setTheme(preference: ThemePreference): Promise<void>;
}

export type ShellMethod = keyof ShellApi;

export const SHELL_METHODS = ['notify', 'saveFile', 'saveLogFile', 'setTheme'] as const satisfies readonly ShellMethod[];

/** What the desktop shell tells the page: its menu's commands and links opened from outside. */
export type ShellEvent =
  | { type: 'refresh-data' }
  | { type: 'show-shortcuts' }
  | { type: 'open-link'; hash: string };

/** Limits the shell enforces before it writes anything. */
export const SAVE_FILE_LIMITS = {
  maxNameLength: 200,
  /** Exports are reports and bundles, not dumps: 64 MiB. */
  maxBytes: 64 * 1024 * 1024,
} as const;
