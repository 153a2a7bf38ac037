/** Errors as they cross the bridge: data the UI can show, never a stack. */

/** Why a call failed, in words an operator can act on. Carried across the bridge as data. */
export type ErrorKind =
  | 'invalid-input'
  | 'invalid-url'
  | 'dns'
  | 'refused'
  | 'tls'
  | 'timeout'
  | 'not-flink'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'server-error'
  | 'malformed-response'
  | 'unexpected-response'
  | 'unsupported-version'
  | 'network'
  | 'internal'
  /** The operator stopped a long call (a rehearsal) before it finished. */
  | 'cancelled'
  /** The cluster redirected to another origin or from https to http; the console did not follow (the message names where). */
  | 'redirect-refused';

export interface ErrorInfo {
  kind: ErrorKind;
  /** One readable sentence: what went wrong, where, and what to do. */
  message: string;
  /** `GET /jobs/overview` style, when a request to a cluster failed. */
  endpoint?: string;
  status?: number;
  /** The field of the response that failed validation (`jobs.0.state`), for an unexpected response. */
  field?: string;
}
