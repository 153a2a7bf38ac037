import { shell, type Session, type WebContents } from 'electron';
import { toExternalLink } from './external-link.ts';

/** Session-wide rules: every permission (camera, notifications, clipboard, USB...) denied; CSP on every response. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  // Only the app's own scripts, styles (inline allowed for React style props) and images (data: for
  // charts), and no outside connections: the page reaches the engine over IPC only. No plugins, no
  // <base> rewriting, no form posts. Kept literal here so audit tools (electronegativity) can read it.
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [
          "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'",
        ],
      },
    });
  });
}

/**
 * Rules for every web contents the app creates: it never navigates away from its page, never opens
 * windows (http(s) links go to the user's browser) and never attaches a <webview>.
 */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-frame-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const link = toExternalLink(url);
    if (link) void shell.openExternal(link);
    return { action: 'deny' };
  });
}
