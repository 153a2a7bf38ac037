import { describe, expect, it } from 'vitest';
import { formatTable } from './format-table.ts';
import { escapedForTerminal, printable, printableLines, terminalJson } from './terminal-text.ts';

describe('printable: cluster-controlled text in a terminal', () => {
  it.each([
    ['colours', 'job\u001b[31mred\u001b[0m', 'jobred'],
    ['cursor moves and screen clears', '\u001b[2J\u001b[Hpwned', 'pwned'],
    ['a window title (OSC, BEL-terminated)', 'a\u001b]0;title\u0007b', 'ab'],
    ['a hyperlink (OSC 8, ST-terminated)', '\u001b]8;;http://evil\u001b\\click\u001b]8;;\u001b\\', 'click'],
    ['a clipboard write (OSC 52)', 'x\u001b]52;c;ZXZpbA==\u0007y', 'xy'],
    ['a DCS string', 'a\u001bPq#0;2;0;0;0\u001b\\b', 'ab'],
    ['8-bit CSI', 'a\u009b31mb', 'ab'],
    ['a lone ESC and other controls', 'a\u001b\u0007\u0000b', 'a??b'],
    ['line breaks and tabs', 'one\ntwo\r\tthree', 'one two  three'],
    ['bidirectional overrides', 'abc\u202edcba', 'abc?dcba'],
  ])('removes %s', (_what, input, expected) => {
    expect(printable(input)).toBe(expected);
  });

  it('leaves ordinary text, Unicode included, alone', () => {
    expect(printable('tenant-cost -> Sink: Writer (Überblick, 数据)')).toBe('tenant-cost -> Sink: Writer (Überblick, 数据)');
  });

  it('is applied to every table cell', () => {
    expect(formatTable(['NAME'], [['evil\u001b[2J\nname']])).toBe('NAME\nevil name\n');
  });
});

describe('whole outputs', () => {
  it('printableLines keeps the line breaks and filters every line', () => {
    expect(printableLines('job\u001b[2J\n\u202eevil\u0000\tx\n')).toBe('job\n?evil? x\n');
  });

  it('JSON for a terminal: C1 controls, DEL and bidi overrides as \\u escapes; the same value', () => {
    const value = { name: 'a\u009b31mb\u202ec\u007f\u001b[2J\u0000' };
    const text = terminalJson(value);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('data (CSV) keeps its line breaks and tabs, and shows the rest as escapes', () => {
    expect(escapedForTerminal('a,b\u001b[31m\r\n1\t2\n')).toBe('a,b\\u001b[31m\\u000d\n1\t2\n');
  });
});
