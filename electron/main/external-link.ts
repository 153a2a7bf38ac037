/**
 * Links the page asks to open in a new window (e.g. a job in the Flink web dashboard) go to the
 * user's browser instead, but only plain http(s) URLs without embedded credentials. Anything else
 * (file:, javascript:, custom schemes that would start other programs) is dropped.
 * Returns the normalized URL to hand to `shell.openExternal`, or null.
 */
export function toExternalLink(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}
