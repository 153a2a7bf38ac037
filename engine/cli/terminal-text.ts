/**
 * Text a cluster controls (job and vertex names, states, Flink's error messages) made safe for a terminal: escape
 * sequences (colours, cursor moves, window titles, hyperlinks, clipboard writes) are removed, other control and
 * bidirectional-override characters become `?`, line breaks and tabs a space. Every string the CLI prints from a
 * cluster goes through here (the table formatter and error lines); JSON output escapes them by itself.
 */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[ -/]*[0-~]?|\u009b[0-?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(/[\t\n\r]/g, ' ').replace(CONTROL, '?');
}
