/**
 * Text a cluster sent (log lines, thread names) made visible, never run: each control character but the tab becomes
 * its Unicode control picture (ESC `␛`, NUL `␀`, DEL `␡`), C1 controls and bidirectional overrides `�`. A terminal or
 * a page then shows what was there, and an escape sequence in a log line colours nothing.
 */
// eslint-disable-next-line no-control-regex
const C0 = /[\u0000-\u0008\u000a-\u001f]/g;
const OTHER = /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function visibleText(text: string): string {
  return text.replace(C0, (c) => String.fromCharCode(0x2400 + c.charCodeAt(0))).replace(OTHER, (c) => (c === '\u007f' ? '\u2421' : '\ufffd'));
}
