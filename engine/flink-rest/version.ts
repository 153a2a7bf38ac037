/** Flink versions the console is built and tested against: 1.18 through 2.x. */
export interface FlinkVersion {
  major: number;
  minor: number;
  patch: number;
  raw: string;
}

export function parseFlinkVersion(raw: string): FlinkVersion | null {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(raw.trim());
  if (!match) return null;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3] ?? 0), raw };
}

export function isSupportedVersion(version: FlinkVersion | null): boolean {
  if (!version) return false;
  if (version.major === 1) return version.minor >= 18;
  return version.major === 2;
}

/**
 * `agg=skew` on aggregated metric endpoints: not in the 1.19 spec, answered by a real 1.20.3 and 2.2.1
 * (e2e/flink/recorded). Older versions reject the whole request, so ask for it only where it exists.
 */
export function supportsSkewAggregation(version: FlinkVersion | null): boolean {
  return !!version && (version.major > 1 || version.minor >= 20);
}
