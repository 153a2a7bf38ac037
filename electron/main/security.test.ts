import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetElectronDouble, shell } from './testing/electron-double.ts';

vi.mock('electron', () => import('./testing/electron-double.ts'));
const { hardenSession, hardenWebContents } = await import('./security.ts');
type Contents = Parameters<typeof hardenWebContents>[0];
type Session = Parameters<typeof hardenSession>[0];

beforeEach(() => resetElectronDouble());

function fakeContents() {
  const contents = Object.assign(new EventEmitter(), {
    openHandler: null as null | ((details: { url: string }) => { action: string }),
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      contents.openHandler = handler;
    },
  });
  return contents;
}

function navigationAttempt(contents: EventEmitter, name: string): boolean {
  const event = { preventDefault: vi.fn() };
  contents.emit(name, event, 'https://evil.example/');
  return event.preventDefault.mock.calls.length > 0;
}

describe('hardenWebContents', () => {
  it('blocks every navigation away from the page and every <webview>', () => {
    const contents = fakeContents();
    hardenWebContents(contents as unknown as Contents);
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      expect(navigationAttempt(contents, name), name).toBe(true);
    }
  });

  it('opens no window; plain http(s) links go to the user\'s browser, anything else nowhere', () => {
    const contents = fakeContents();
    hardenWebContents(contents as unknown as Contents);
    for (const url of ['https://flink.example:8081/#/job/abc/overview', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://u:p@flink.example/']) {
      expect(contents.openHandler!({ url })).toEqual({ action: 'deny' });
    }
    expect(shell.openExternal.mock.calls).toEqual([['https://flink.example:8081/#/job/abc/overview']]);
  });
});

describe('hardenSession', () => {
  function fakeSession() {
    const handlers: Record<string, (...args: never[]) => unknown> = {};
    let headers: ((details: { responseHeaders: Record<string, string[]> }, callback: (response: { responseHeaders: Record<string, string[]> }) => void) => void) | null = null;
    const session = {
      setPermissionRequestHandler: (h: (...args: never[]) => unknown) => (handlers.request = h),
      setPermissionCheckHandler: (h: (...args: never[]) => unknown) => (handlers.check = h),
      setDevicePermissionHandler: (h: (...args: never[]) => unknown) => (handlers.device = h),
      webRequest: { onHeadersReceived: (h: typeof headers) => (headers = h) },
    };
    return { session: session as unknown as Session, handlers, headers: () => headers! };
  }

  it('denies every permission the page could ask for, notifications included', () => {
    const { session, handlers } = fakeSession();
    hardenSession(session);
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-sanitized-write', 'openExternal', 'hid', 'fullscreen']) {
      const callback = vi.fn();
      (handlers.request as (...a: unknown[]) => void)({}, permission, callback, {});
      expect(callback, permission).toHaveBeenCalledWith(false);
      expect((handlers.check as (...a: unknown[]) => boolean)({}, permission, 'file://', {}), permission).toBe(false);
    }
    expect((handlers.device as (...a: unknown[]) => boolean)({ deviceType: 'usb' })).toBe(false);
  });

  it('sends a strict Content-Security-Policy with every response', () => {
    const { session, headers } = fakeSession();
    hardenSession(session);
    const callback = vi.fn();
    headers()({ responseHeaders: { 'X-Other': ['kept'] } }, callback);
    const sent = callback.mock.calls[0][0].responseHeaders;
    expect(sent['X-Other']).toEqual(['kept']);
    expect(sent['Content-Security-Policy'][0]).toMatch(/default-src 'self'; script-src 'self';.*object-src 'none'/);
  });
});
