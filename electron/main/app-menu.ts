import { app, Menu } from 'electron';
import { PRODUCT_NAME } from '../common/app-identity.ts';
import { menuTemplate, type MenuCommands } from './menu-template.ts';

/** Installs the application menu and the About box (name, version). */
export function installAppMenu(options: { version: string; development: boolean; commands: MenuCommands }): void {
  app.setAboutPanelOptions({
    applicationName: PRODUCT_NAME,
    applicationVersion: options.version,
    version: `Electron ${process.versions.electron ?? ''}`.trim(),
    copyright: 'Apache License 2.0',
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate({ platform: process.platform, development: options.development, commands: options.commands })));
}
