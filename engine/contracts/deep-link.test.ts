import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepLinkFromArgv, deepLinkHash, formatDeepLink, parseDeepLink, parseDeepLinkPath } from './deep-link.ts';

const JOB = '0123456789abcdef0123456789abcdef';

describe('parseDeepLink', () => {
  it('reads the cluster name and the job id', () => {
    expect(parseDeepLink(`flink-ops://cluster/prod-eu/job/${JOB}`)).toEqual({ clusterName: 'prod-eu', jobId: JOB });
    expect(parseDeepLink(`flink-ops://cluster/Local%20engine/job/${JOB}`)).toEqual({ clusterName: 'Local engine', jobId: JOB });
  });

  it('tolerates what OSes add or change: a trailing slash, upper case scheme and hex', () => {
    expect(parseDeepLink(`flink-ops://cluster/prod/job/${JOB}/`)).toEqual({ clusterName: 'prod', jobId: JOB });
    expect(parseDeepLink(`FLINK-OPS://cluster/prod/job/${JOB.toUpperCase()}`)).toEqual({ clusterName: 'prod', jobId: JOB });
  });

  it('refuses hostile and malformed links', () => {
    const hostile = [
      `https://cluster/prod/job/${JOB}`,
      `flink-ops:cluster/prod/job/${JOB}`,
      `flink-ops://user:pw@cluster/prod/job/${JOB}`,
      `flink-ops://cluster:8081/prod/job/${JOB}`,
      `flink-ops://cluster/prod/job/${JOB}?vertex=x`,
      `flink-ops://cluster/prod/job/${JOB}#x`,
      `flink-ops://cluster/prod/job/${JOB}/extra`,
      `flink-ops://cluster/../job/${JOB}`,
      `flink-ops://cluster/%2E%2E/job/${JOB}`,
      `flink-ops://cluster\\prod/job/${JOB}`,
      `flink-ops://cluster//job/${JOB}`,
      `flink-ops://cluster/%20/job/${JOB}`,
      `flink-ops://cluster/%E0%A4%A/job/${JOB}`,
      `flink-ops://cluster/prod%00/job/${JOB}`,
      `flink-ops://cluster/evil%E2%80%AEfdp/job/${JOB}`,
      `flink-ops://cluster/prod\n/job/${JOB}`,
      `flink-ops://cluster/prod/job/${JOB.slice(1)}`,
      `flink-ops://cluster/prod/job/${JOB}0`,
      `flink-ops://cluster/prod/job/zz23456789abcdef0123456789abcdef`,
      `flink-ops://cluster/prod/job/%30123456789abcdef0123456789abcdef`,
      `flink-ops://cluster/${'a'.repeat(201)}/job/${JOB}`,
      `flink-ops://cluster/${'a'.repeat(3000)}/job/${JOB}`,
      `flink-ops://jobs/prod/job/${JOB}`,
      'flink-ops://',
      '',
      42,
      null,
      undefined,
      { href: `flink-ops://cluster/prod/job/${JOB}` },
    ];
    for (const link of hostile) expect(parseDeepLink(link), String(link)).toBeNull();
  });

  it('round-trips any printable cluster name through formatDeepLink', () => {
    const name = fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' }).filter((s) => s.trim() !== '' && s !== '.' && s !== '..' && !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(s));
    fc.assert(
      fc.property(name, (clusterName) => {
        expect(parseDeepLink(formatDeepLink({ clusterName, jobId: JOB }))).toEqual({ clusterName, jobId: JOB });
      }),
    );
  });

  it('never throws, whatever the input', () => {
    fc.assert(fc.property(fc.string(), (s) => void parseDeepLink(`flink-ops://${s}`)));
  });
});

describe('the web-mode hash', () => {
  it('carries the same path', () => {
    const target = { clusterName: 'prod eu/1', jobId: JOB };
    expect(deepLinkHash(target)).toBe(`#/cluster/prod%20eu%2F1/job/${JOB}`);
    expect(parseDeepLinkPath(deepLinkHash(target).slice(1))).toEqual(target);
    expect(parseDeepLinkPath(`cluster/prod/job/${JOB}`)).toEqual({ clusterName: 'prod', jobId: JOB });
  });
});

describe('deepLinkFromArgv', () => {
  it('finds the link a second launch or the OS passes', () => {
    const argv = ['/opt/Flink Ops Console/flink-ops-console', '--no-sandbox', `flink-ops://cluster/prod/job/${JOB}`];
    expect(deepLinkFromArgv(argv)).toEqual({ clusterName: 'prod', jobId: JOB });
  });

  it('ignores arguments that are no valid link', () => {
    expect(deepLinkFromArgv(['/app', 'flink-ops://cluster/prod/job/1234', '--flag'])).toBeNull();
    expect(deepLinkFromArgv([])).toBeNull();
  });
});
