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
