/**
 * Flink's REST error body. A handler's `RestHandlerException` reaches the wire as a single string: the exception's
 * class and message followed by its stack trace (observed on 2.2.1):
 * `{"errors": ["org.apache.flink.runtime.rest.handler.RestHandlerException: <message>\n\tat <frame>\n..."]}`.
 */

export const REST_HANDLER_EXCEPTION = 'org.apache.flink.runtime.rest.handler.RestHandlerException';

/** `{"errors": ["<class>: <message>\n\tat <frame>..."]}`; without frames, `"<class>: <message>"` alone. */
export function flinkErrorBody(message: string, frames: readonly string[] = [], exceptionClass = REST_HANDLER_EXCEPTION): { errors: string[] } {
  const text = [`${exceptionClass}: ${message}`, ...frames.map((f) => `\tat ${f}`)].join('\n');
  return { errors: [frames.length > 0 ? `${text}\n` : text] };
}

/** The message inside a Flink error string (drops the class prefix and the stack), for display. */
export function flinkErrorMessage(error: string): string {
  const firstLine = error.split('\n')[0];
  const match = /^[\w.$]+(?:Exception|Error): (.*)$/.exec(firstLine);
  return match ? match[1] : firstLine;
}
