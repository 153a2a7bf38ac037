import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { menuTemplate } from './menu-template.ts';

const commands = () => ({ reloadData: vi.fn(), showShortcuts: vi.fn(), openHelp: vi.fn() });

/** Every item, depth first. */
function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
}
const roles = (template: MenuItemConstructorOptions[]) => items(template).map((i) => i.role).filter(Boolean);
const byLabel = (template: MenuItemConstructorOptions[], label: string) => items(template).find((i) => i.label === label)!;
const click = (item: MenuItemConstructorOptions) => (item.click as () => void)();

describe('menuTemplate', () => {
  it('gives Windows and Linux the usual menus, About under Help', () => {
    const template = menuTemplate({ platform: 'linux', development: false, commands: commands() });
    expect(template.map((m) => m.role ?? m.label)).toEqual(['fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
    expect(roles(template)).toEqual(['fileMenu', 'editMenu', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen', 'windowMenu', 'help', 'about']);
  });

  it('gives macOS its app menu (About, Hide, Quit) and no second About', () => {
    const template = menuTemplate({ platform: 'darwin', development: false, commands: commands() });
    expect(template[0]).toEqual({ role: 'appMenu' });
    expect(roles(template).filter((r) => r === 'about')).toEqual([]);
  });

  it('reloads the data, not the page, on Ctrl/Cmd+R', () => {
    const c = commands();
    const template = menuTemplate({ platform: 'win32', development: false, commands: c });
    const reload = byLabel(template, 'Reload Data');
    expect(reload.accelerator).toBe('CmdOrCtrl+R');
    click(reload);
    expect(c.reloadData).toHaveBeenCalledOnce();
    // No item reloads the page in a release: the default View menu's reload would, so it is not used.
    expect(roles(template)).not.toContain('reload');
    expect(roles(template)).not.toContain('forceReload');
    expect(roles(template)).not.toContain('viewMenu');
  });

  it('has developer tools in development builds only', () => {
    expect(roles(menuTemplate({ platform: 'linux', development: false, commands: commands() }))).not.toContain('toggleDevTools');
    expect(roles(menuTemplate({ platform: 'linux', development: true, commands: commands() }))).toEqual(expect.arrayContaining(['toggleDevTools', 'forceReload']));
  });

  it('opens the help and the shortcuts sheet from Help', () => {
    const c = commands();
    const template = menuTemplate({ platform: 'linux', development: false, commands: c });
    click(byLabel(template, 'Flink Ops Console Help'));
    click(byLabel(template, 'Keyboard Shortcuts'));
    expect(c.openHelp).toHaveBeenCalledOnce();
    expect(c.showShortcuts).toHaveBeenCalledOnce();
  });
});
