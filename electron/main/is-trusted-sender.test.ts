import { describe, expect, it } from 'vitest';
import { isTrustedSender } from './is-trusted-sender.ts';

const PAGE = 'file:///opt/flink%20ops/renderer/dist/index.html';
const main = (url: string) => ({ url, isMainFrame: true });

describe('isTrustedSender', () => {
  it('accepts the app page whatever its route in hash or query', () => {
    expect(isTrustedSender(main(PAGE), PAGE)).toBe(true);
    expect(isTrustedSender(main(`${PAGE}#/clusters/c1/jobs`), PAGE)).toBe(true);
    expect(isTrustedSender(main(`${PAGE}?x=1`), PAGE)).toBe(true);
  });

  it('treats differently escaped paths as the same file', () => {
    expect(isTrustedSender(main('file:///opt/flink ops/renderer/dist/index.html'), PAGE)).toBe(true);
    expect(isTrustedSender(main('file:///opt/flink%20ops/renderer/dist/%69ndex.html'), PAGE)).toBe(true);
  });

  it('refuses other files, schemes and hosts', () => {
    expect(isTrustedSender(main('file:///opt/flink%20ops/renderer/dist/other.html'), PAGE)).toBe(false);
    expect(isTrustedSender(main('file:///tmp/index.html'), PAGE)).toBe(false);
    expect(isTrustedSender(main('https://evil.example/renderer/dist/index.html'), PAGE)).toBe(false);
    expect(isTrustedSender(main('file://server/opt/flink%20ops/renderer/dist/index.html'), PAGE)).toBe(false);
    expect(isTrustedSender(main('about:blank'), PAGE)).toBe(false);
    expect(isTrustedSender(main('not a url'), PAGE)).toBe(false);
    expect(isTrustedSender(main('file:///opt/%E0%A4%A'), PAGE)).toBe(false);
  });

  it('refuses iframes and missing frames', () => {
    expect(isTrustedSender({ url: PAGE, isMainFrame: false }, PAGE)).toBe(false);
    expect(isTrustedSender(null, PAGE)).toBe(false);
    expect(isTrustedSender(undefined, PAGE)).toBe(false);
  });

  it('refuses everything when the trusted URL is not a file URL', () => {
    expect(isTrustedSender(main('https://app.example/'), 'https://app.example/')).toBe(false);
  });

  it('folds case only when asked (Windows, macOS)', () => {
    const upper = 'file:///C:/Apps/Flink/renderer/dist/index.html';
    const lower = 'file:///c:/apps/flink/renderer/dist/index.html';
    expect(isTrustedSender(main(lower), upper)).toBe(false);
    expect(isTrustedSender(main(lower), upper, { caseInsensitivePaths: true })).toBe(true);
  });
});
