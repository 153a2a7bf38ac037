import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';

/**
 * Every error the local engine answers is Flink's `{"errors": [...]}` in JSON: refused bodies (too large, bad
 * encoding), undecodable URLs, oversized headers, and exceptions of its own code, which show their message but never
 * the engine's JavaScript stack (Flink's shape for an unexpected exception, without a trace).
 */

/** Flink's body for an unexpected exception (`"Internal server error."` plus the exception, here without frames). */
export function internalErrorBody(error: unknown): { errors: string[] } {
  const summary = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { errors: ['Internal server error.', `<Exception on server side:\n${summary}\nEnd of exception on server side>`] };
}

interface HttpError {
  status?: number;
  statusCode?: number;
  type?: string;
  limit?: number;
  length?: number;
  message?: string;
}

function messageOf(error: HttpError, status: number): string {
  if (error.type === 'entity.too.large') {
    const size = error.length !== undefined ? ` of ${error.length} bytes` : '';
    return `Request entity too large: the body${size} exceeds the local engine's limit of ${error.limit ?? 0} bytes.`;
  }
  if (error instanceof URIError || /decode/i.test(error.message ?? '')) return `Bad request: the URL is not valid percent-encoding (${error.message ?? 'URIError'}).`;
  if (status >= 500) return 'Internal server error.';
  return `Bad request: ${error.message ?? 'the request could not be read'}.`;
}

/** The express error handler: body-parser refusals, URIError and anything a handler threw. */
export function flinkErrorHandler(error: unknown, req: Request, res: Response, next: NextFunction): void {
  void next;
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const httpError = (typeof error === 'object' && error !== null ? error : {}) as HttpError;
  const status = httpError.status ?? httpError.statusCode ?? 500;
  if (status >= 500) {
    res.status(status).json(internalErrorBody(error));
    return;
  }
  res.status(status).json({ errors: [messageOf(httpError, status)] });
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Requests Node's HTTP parser refuses before express sees them (headers over 16 KiB, malformed request lines) are
 * answered in Flink's shape too, instead of Node's empty 431/400.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message =
      status === 431
        ? 'Request header fields too large: the URL and headers exceed 16 KiB.'
        : status === 408
          ? 'Request timeout: the request did not arrive in time.'
          : `Bad request: the HTTP request could not be parsed (${error.code ?? error.message}).`;
    const body = JSON.stringify({ errors: [message] });
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
