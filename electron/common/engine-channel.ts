/**
 * The one IPC channel between preload and main. Every engine call crosses it as
 * `(method, args)` and comes back as a `BridgeResponse`; nothing else is wired.
 */
export const ENGINE_CHANNEL = 'engine:invoke';
