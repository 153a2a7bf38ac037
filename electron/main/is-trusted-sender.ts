/** What the IPC handler knows about the frame a call came from. */
export interface SenderFrameInfo {
  /** The frame's current URL, e.g. `file:///opt/flink-ops/renderer/dist/index.html#/jobs`. */
  url: string;
  /** False for iframes: only the top-level page may call the engine. */
  isMainFrame: boolean;
}

export interface TrustedSenderOptions {
  /**
   * Compare file paths case-insensitively (Windows and default macOS file systems).
   * @default false
   */
  caseInsensitivePaths?: boolean;
}

/**
 * True only for the app's own page: a top-level frame at exactly `trustedPageUrl` (a `file:` URL),
 * whatever its hash or query (the UI keeps its route there). Any other page, scheme, host or
 * file, an iframe, or an unparsable URL is refused.
 */
export function isTrustedSender(
  frame: SenderFrameInfo | null | undefined,
  trustedPageUrl: string,
  options: TrustedSenderOptions = {},
): boolean {
  if (!frame || !frame.isMainFrame) return false;
  const sender = parseFileUrl(frame.url);
  const trusted = parseFileUrl(trustedPageUrl);
  if (!sender || !trusted) return false;
  if (sender.host !== trusted.host) return false;
  const fold = (path: string): string => (options.caseInsensitivePaths ? path.toLowerCase() : path);
  return fold(sender.path) === fold(trusted.path);
}

function parseFileUrl(value: string): { host: string; path: string } | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'file:') return null;
    // Decode so `%20` and a literal space (or differently escaped letters) compare equal.
    return { host: url.host.toLowerCase(), path: decodeURIComponent(url.pathname) };
  } catch {
    return null;
  }
}
