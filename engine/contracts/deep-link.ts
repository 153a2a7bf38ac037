/**
 * Deep links into the console: `flink-ops://cluster/<name>/job/<id>` opens that job. The desktop app
 * registers the `flink-ops` scheme; web mode takes the same path as a URL hash (`#/cluster/<name>/job/<id>`).
 * Pure: the shell and the page share this parser, so both refuse the same hostile links.
 *
 * The link names the cluster by its name, not its id: ids are local to one installation, names are what
 * people share ("prod-eu", the cluster in the runbook).
 */

export const DEEP_LINK_SCHEME = 'flink-ops';

export interface DeepLinkTarget {
  clusterName: string;
  /** Flink's job id: 32 lower-case hex characters. */
  jobId: string;
}

/** Longer than any real link; a link this long is an attack on the parser or the UI, not a job. */
const MAX_LINK_LENGTH = 2048;
const MAX_NAME_LENGTH = 200;
const JOB_ID = /^[0-9a-f]{32}$/i;
/** Control and invisible format characters (bidi overrides, zero-width): they hide what a link really says. */
const HIDDEN_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * The target of `flink-ops://cluster/<name>/job/<id>` (one trailing slash tolerated: some OSes add it),
 * or null for anything else: another scheme, credentials, a port, a query or fragment, extra segments,
 * bad escapes, hidden characters, an id that is not a Flink job id.
 */
export function parseDeepLink(link: unknown): DeepLinkTarget | null {
  if (typeof link !== 'string' || link.length > MAX_LINK_LENGTH || HIDDEN_CHARACTERS.test(link)) return null;
  const prefix = `${DEEP_LINK_SCHEME}://`;
  if (link.slice(0, prefix.length).toLowerCase() !== prefix) return null;
  const rest = link.slice(prefix.length);
  // Parsed by hand, not with URL: for a custom scheme WHATWG URL keeps `user@`, `:port`, `\` and dot
  // segments in ways that differ between Node and Chromium. Anything unusual is simply refused.
  if (/[?#@\\]/.test(rest)) return null;
  return parseDeepLinkPath(rest);
}

/**
 * The path part shared by the link and the web-mode hash: `cluster/<name>/job/<id>`, segments
 * percent-encoded, an optional leading and trailing slash. Null when it is anything else.
 */
export function parseDeepLinkPath(path: string): DeepLinkTarget | null {
  if (path.length > MAX_LINK_LENGTH || HIDDEN_CHARACTERS.test(path)) return null;
  const trimmed = path.replace(/^\//, '').replace(/\/$/, '');
  const segments = trimmed.split('/');
  if (segments.length !== 4 || segments[0].toLowerCase() !== 'cluster' || segments[2].toLowerCase() !== 'job') return null;
  let clusterName: string;
  try {
    clusterName = decodeURIComponent(segments[1]);
  } catch {
    return null;
  }
  const jobId = segments[3];
  if (!isClusterName(clusterName) || !JOB_ID.test(jobId)) return null;
  return { clusterName, jobId: jobId.toLowerCase() };
}

function isClusterName(name: string): boolean {
  return (
    name.trim().length > 0 &&
    name.length <= MAX_NAME_LENGTH &&
    !HIDDEN_CHARACTERS.test(name) &&
    name !== '.' &&
    name !== '..'
  );
}

export function formatDeepLink(target: DeepLinkTarget): string {
  return `${DEEP_LINK_SCHEME}://${deepLinkPath(target)}`;
}

/** `#/cluster/<name>/job/<id>`: the same link for web mode, and how the desktop app opens its page on a link. */
export function deepLinkHash(target: DeepLinkTarget): string {
  return `#/${deepLinkPath(target)}`;
}

function deepLinkPath(target: DeepLinkTarget): string {
  return `cluster/${encodeURIComponent(target.clusterName)}/job/${target.jobId}`;
}

/**
 * The deep link among a process's arguments (how Windows and Linux hand a clicked link to the app,
 * and how a second instance passes it on): the first argument that is one, or null.
 */
export function deepLinkFromArgv(argv: readonly string[]): DeepLinkTarget | null {
  for (const arg of argv) {
    if (typeof arg === 'string' && arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`)) {
      const target = parseDeepLink(arg);
      if (target) return target;
    }
  }
  return null;
}
