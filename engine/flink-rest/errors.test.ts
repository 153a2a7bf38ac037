import { describe, expect, it } from 'vitest';
import { fromHttpStatus } from './errors.ts';

/** Flink 2.2.1's answer to `POST /jars/:jarid/plan` when the program's main() throws (abridged, as sent). */
const INTERNAL_ERROR = JSON.stringify({
  errors: [
    'Internal server error.',
    '<Exception on server side:\norg.apache.flink.client.program.ProgramInvocationException: The main method caused an error: unknown argument: --speed\n' +
      '\tat org.apache.flink.client.program.PackagedProgram.callMainMethod(PackagedProgram.java:360)\n' +
      'Caused by: java.lang.IllegalArgumentException: unknown argument: --speed\n\t... 12 more\n\nEnd of exception on server side>',
  ],
});

describe('fromHttpStatus', () => {
  it('keeps the first line of Flink\'s message', () => {
    const error = fromHttpStatus(400, JSON.stringify({ errors: ['Bad request.\nmore'] }), 'POST /jars/:jarid/run', 'http://jm');
    expect(error.info).toMatchObject({ status: 400, message: 'http://jm answered 400 to POST /jars/:jarid/run: Bad request.' });
  });

  it('an internal server error says the trace\'s innermost cause, without class names or the trace', () => {
    const error = fromHttpStatus(500, INTERNAL_ERROR, 'POST /jars/:jarid/plan', 'http://jm');
    expect(error.info.message).toBe('http://jm failed POST /jars/:jarid/plan with 500: Internal server error: unknown argument: --speed');
  });

  it('an internal server error without a trace stays as Flink says it', () => {
    const error = fromHttpStatus(500, JSON.stringify({ errors: ['Internal server error.'] }), 'GET /x', 'http://jm');
    expect(error.info.message).toBe('http://jm failed GET /x with 500: Internal server error.');
  });

  it('keeps the first line of a Prometheus API error (its `{status: "error", error}` envelope)', () => {
    const body = JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'invalid parameter "query": 1:5: parse error\nat line 2' });
    const error = fromHttpStatus(400, body, 'GET /api/v1/query_range', 'http://prom:9090');
    expect(error.info.message).toBe('http://prom:9090 answered 400 to GET /api/v1/query_range: invalid parameter "query": 1:5: parse error');
  });
});
