import { printable } from '../cli/terminal-text.ts';
import type { FlinkRestClient, RequestOptions } from '../flink-rest/client.ts';
import type { EndpointSpec } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { Envelope } from './prometheus-schemas.ts';

/** A successful answer's data, and the warnings the store added (a Thanos partial response, a dropped series...). */
export interface StoreAnswer<D> {
  data: D;
  warnings: string[];
}

/**
 * One request to a metrics store through the cluster's client (the same deadline, caps, TLS and validation), its
 * envelope unwrapped. Failures are EngineErrors in the store's words: the client's own sentences speak of a JobManager.
 */
export async function askStore<D>(
  client: FlinkRestClient,
  spec: EndpointSpec<Envelope<D>>,
  query: Record<string, string>,
  options: RequestOptions = {},
): Promise<StoreAnswer<D>> {
  const endpoint = `${spec.method} ${spec.path}`;
  let answer: Envelope<D>;
  try {
    answer = await client.request(spec, {}, query, options);
  } catch (error) {
    throw inStoreWords(error, client.baseUrl);
  }
  if (answer.status === 'error') {
    const reason = printable(answer.error.split('\n')[0]).slice(0, 300) || 'no reason given';
    throw new EngineError('server-error', `${client.baseUrl} answered ${endpoint} with an error (${answer.errorType ?? 'unknown'}): ${reason}`, { endpoint });
  }
  return { data: answer.data, warnings: [...(answer.warnings ?? []), ...(answer.infos ?? [])] };
}

/** The client's failures reworded where they speak of a JobManager or a cluster, and printable; the kind, endpoint and status kept. */
export function inStoreWords(error: unknown, baseUrl: string): unknown {
  if (!(error instanceof EngineError)) return error;
  const { kind, endpoint, status, field } = error.info;
  const at = { endpoint, status, field };
  switch (kind) {
    case 'refused':
      return new EngineError(kind, `Connection refused by ${baseUrl}: nothing listens there. Is the metrics store running, and is this its query API's URL (Prometheus: http://host:9090)?`, at);
    case 'not-flink':
      // The client's only `not-flink` is an HTML page: a UI, a login page or a proxy's, not the query API.
      return new EngineError('unexpected-response', `${baseUrl} answered ${endpoint} with an HTML page, not the Prometheus HTTP API: is this the query API's URL (Mimir: …/prometheus)?`, at);
    case 'not-found':
      return new EngineError(kind, `${baseUrl} has no ${endpoint} (404): is this the base URL of a Prometheus-compatible query API?`, at);
    case 'unauthorized':
      return new EngineError(kind, `${baseUrl} refused ${endpoint} with 401 Unauthorized: check the metrics store's credentials.`, at);
    case 'tls':
      return new EngineError(kind, error.info.message.replace("Add the cluster's CA file", "Add the metrics store's CA file"), at);
    case 'redirect-refused':
      return new EngineError(kind, error.info.message.replace(/The console reads a cluster only at its own URL.*$/, 'The console reads a metrics store only at its own URL; if it moved, change the URL.'), at);
    case 'timeout':
      return new EngineError(kind, error.info.message.replace('the cluster is slow or unreachable', 'the metrics store is slow or unreachable'), at);
    default:
      // The store's own text (an error message of its envelope) is made printable, as cluster text is.
      return new EngineError(kind, printable(error.info.message), at);
  }
}
