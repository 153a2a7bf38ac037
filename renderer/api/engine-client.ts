import { ENGINE_CALLS, type BridgeResponse, type EngineApi, type EngineCallName } from '../../engine/contracts/engine-api';
import type { ErrorInfo } from '../../engine/contracts/errors';
import type { ShellEvent, ShellMethod } from '../../engine/contracts/shell-api';

/** A failed engine call, carrying the engine's explanation. */
export class EngineCallError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
    this.name = 'EngineCallError';
  }
}

export type Transport = (call: EngineCallName, args: unknown[]) => Promise<BridgeResponse>;

/**
 * Builds the typed services over any transport, from the same call table the edges check: the renderer never names
 * a call itself.
 */
export function createEngineClient(transport: Transport): EngineApi {
  const services: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const [service, calls] of Object.entries(ENGINE_CALLS)) {
    services[service] = {};
    for (const method of Object.keys(calls)) {
      services[service][method] = async (...args: unknown[]) => {
        const response = await transport(`${service}.${method}` as EngineCallName, args);
        if (!response.ok) throw new EngineCallError(response.error);
        return response.value;
      };
    }
  }
  return services as unknown as EngineApi;
}

/** Exposed by electron/preload: each call checked against its table (ENGINE_CALLS, SHELL_METHODS) on both sides. */
interface PreloadBridge {
  invoke(call: EngineCallName, args: unknown[]): Promise<BridgeResponse>;
  /** The desktop shell's calls (see shell-client.ts). */
  invokeShell?(method: ShellMethod, args: unknown[]): Promise<BridgeResponse>;
  /** The desktop shell's events; returns a function that unsubscribes. */
  onShellEvent?(listener: (event: ShellEvent) => void): () => void;
}

declare global {
  interface Window {
    flinkOps?: PreloadBridge;
  }
}

const TOKEN_KEY = 'flink-ops-token';

/**
 * Web mode: the engine serves this page on loopback and prints a URL with a per-launch token.
 * The token moves from the URL into session storage, so it is not left in the address bar or history.
 */
export function readWebToken(location: Location, storage: Storage, history: History): string | null {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    storage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return storage.getItem(TOKEN_KEY);
}

export function webTransport(token: string | null): Transport {
  return async (call, args) => {
    let response: Response;
    try {
      response = await fetch('/api/rpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token ?? ''}` },
        body: JSON.stringify({ call, args }),
      });
    } catch {
      return failure('network', 'The console lost its connection to the engine. Is `npm start` still running?');
    }
    if (response.status === 401) {
      return failure('unauthorized', 'This page has no valid launch token. Open the URL that `npm start` printed.');
    }
    try {
      return (await response.json()) as BridgeResponse;
    } catch {
      return failure('internal', `The engine answered ${response.status} without a readable body.`);
    }
  };
}

function failure(kind: ErrorInfo['kind'], message: string): BridgeResponse {
  return { ok: false, error: { kind, message } };
}

/** The transport for wherever this bundle runs: Electron's preload bridge, else web mode. */
export function defaultTransport(): Transport {
  const bridge = window.flinkOps;
  if (bridge) return (call, args) => bridge.invoke(call, args);
  return webTransport(readWebToken(window.location, window.sessionStorage, window.history));
}
