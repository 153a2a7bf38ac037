/** The app service: what the UI needs to know of the program it runs in. */

export interface AppApi {
  /** Electron or web mode, where secrets are kept, the version. */
  info(): Promise<AppInfo>;
}

export interface AppInfo {
  mode: 'electron' | 'web';
  /** 'encrypted': OS-backed (Electron safeStorage); 'memory': secrets are kept in memory only and asked again after a restart. */
  secretStorage: 'encrypted' | 'memory';
  version: string;
}
