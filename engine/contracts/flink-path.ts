/**
 * A folder or file as Flink spells it back (its `Path`): `file:///data/sp` is answered as `file:/data/sp`, repeated
 * slashes once, no trailing slash. For display and comparison only: what the user typed is what is sent to Flink.
 */
export function flinkSpelling(uri: string): string {
  const trimmed = uri.trim();
  // scheme, then "//authority" (empty for file:///), then the path.
  const match = /^([a-z][a-z0-9+.-]*:)(\/\/[^/]*)?(\/.*)?$/i.exec(trimmed);
  if (!match) return normalisedPath(trimmed);
  const [, scheme, authority = '', path = ''] = match;
  return `${scheme}${authority === '//' ? '' : authority}${normalisedPath(path)}`;
}

function normalisedPath(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed;
}
