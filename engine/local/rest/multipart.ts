/**
 * The one file of a `multipart/form-data` body (Flink's `POST /jars/upload`, field `jarfile` as its docs show; Flink
 * takes any field name): its file name and bytes. Anything else — no boundary, no file, two files — is a clear error.
 */

export class MultipartError extends Error {}

export interface UploadedFile {
  field: string;
  fileName: string;
  bytes: Buffer;
}

export function boundaryOf(contentType: string | undefined): string {
  const match = /^multipart\/form-data\s*;(?:.*;)?\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  if (!match) throw new MultipartError('The upload must be multipart/form-data with a boundary.');
  return match[1] ?? match[2];
}

function headerValue(headers: string, name: string): string | undefined {
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name) return line.slice(colon + 1).trim();
  }
  return undefined;
}

function parameter(disposition: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}="([^"]*)"`, 'i').exec(disposition) ?? new RegExp(`;\\s*${name}=([^;\\s]+)`, 'i').exec(disposition);
  return match?.[1];
}

export function singleFile(body: Buffer, contentType: string | undefined): UploadedFile {
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  const files: UploadedFile[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw new MultipartError('The upload body has no part.');
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') break;
    const headersEnd = body.indexOf('\r\n\r\n', at);
    if (headersEnd < 0) throw new MultipartError('A part of the upload has no end of headers.');
    const headers = body.toString('utf8', at + 2, headersEnd);
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headersEnd + 4);
    if (next < 0) throw new MultipartError('The upload body ends inside a part (no closing boundary).');
    const disposition = headerValue(headers, 'content-disposition') ?? '';
    const fileName = parameter(disposition, 'filename');
    if (fileName !== undefined) files.push({ field: parameter(disposition, 'name') ?? '', fileName, bytes: body.subarray(headersEnd + 4, next) });
    at = next + 2;
  }
  // Flink's JarUploadHandler: exactly one file.
  if (files.length !== 1) throw new MultipartError(`Exactly 1 file must be sent, received ${files.length}.`);
  return files[0];
}
