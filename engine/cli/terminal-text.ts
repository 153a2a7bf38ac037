/**
 * Text a cluster controls (job and vertex names, states, Flink's error messages) made safe for a terminal: escape
 * sequences (colours, cursor moves, window titles, hyperlinks, clipboard writes) are removed, other control and
 * bidirectional-override characters become `?`, line breaks and tabs a space. Every string the CLI prints from a
 * cluster goes through here: each field of a heading or a table cell on its own (a line break in a name cannot
 * start a line of its own), and then the whole text once more line by line before it is written.
 */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[ -/]*[0-~]?|\u009b[0-?]*[ -/]*[@-~]/g;
/** Every control character but the tab and the line break, and the bidirectional overrides and marks. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One line of text: nothing in it acts on the terminal, and it stays one line. */
export function printable(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(/[\t\n\r]/g, ' ').replace(CONTROL, '?');
}

/** A whole text output (sentences, tables, stack traces) made printable line by line: its line breaks stay. */
export function printableLines(text: string): string {
  return text
    .split('\n')
    .map((line) => printable(line))
    .join('\n');
}

/**
 * Data written to stdout (JSON, CSV): each character a terminal would act on as a `\uXXXX` escape. JSON.stringify
 * escapes C0 controls itself but leaves DEL, the C1 controls (U+009B is a CSI) and bidi overrides raw; escaped, the
 * JSON document is the same value. A CSV cell shows the escape as text instead of running it.
 */
export function escapedForTerminal(data: string): string {
  return data.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `--json` output: one JSON document and a line break, safe for a terminal. */
export function terminalJson(value: unknown): string {
  return `${escapedForTerminal(JSON.stringify(value, null, 2))}\n`;
}
