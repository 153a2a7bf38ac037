import type { MenuItemConstructorOptions } from 'electron';

/**
 * The application menu as data (a type import only: no Electron binary needed to build or test it).
 * Standard roles give each OS its usual items and shortcuts; the app's own commands go through `commands`.
 * Ctrl/Cmd+R reloads the data, not the page: a page reload would drop what the operator is looking at.
 */
export interface MenuCommands {
  reloadData(): void;
  showShortcuts(): void;
  openHelp(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Developer tools and a hard page reload exist only in development builds. */
  development: boolean;
  commands: MenuCommands;
}

export function menuTemplate({ platform, development, commands }: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const view: MenuItemConstructorOptions[] = [
    { label: 'Reload Data', accelerator: 'CmdOrCtrl+R', click: () => commands.reloadData() },
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
    ...(development
      ? ([{ type: 'separator' }, { role: 'forceReload' }, { role: 'toggleDevTools' }] satisfies MenuItemConstructorOptions[])
      : []),
  ];
  const help: MenuItemConstructorOptions[] = [
    // The page handles `?` itself; the menu makes the sheet findable.
    { label: 'Keyboard Shortcuts', click: () => commands.showShortcuts() },
    { label: 'Flink Ops Console Help', click: () => commands.openHelp() },
    // macOS shows About in the app menu.
    ...(mac ? [] : ([{ type: 'separator' }, { role: 'about' }] satisfies MenuItemConstructorOptions[])),
  ];
  return [
    ...(mac ? ([{ role: 'appMenu' }] satisfies MenuItemConstructorOptions[]) : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: help },
  ];
}
