import { createElement, lazy, useState, type ComponentType, type ReactNode } from 'react';

/** A code-split component whose chunk can be fetched before it is first shown. */
export interface Preloadable<P extends object> {
  (props: P): ReactNode;
  /** Fetches the chunk; a failed fetch is tried again by the next call (or render). */
  preload(): Promise<void>;
}

/**
 * `React.lazy`, plus `preload()`. A lazy component suspends on its first render even when its chunk is already
 * loaded, and React then keeps the fallback up for as long as its reveal throttle (300 ms): opening a job page took
 * that much longer than loading it. Once `preload()` has resolved, the component renders at once. Which of the two a
 * mounted instance renders is chosen at mount, so a load that completes later never remounts it.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchChunk = (): Promise<ComponentType<P>> =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  const Lazy = lazy(() => fetchChunk().then((component) => ({ default: component })));

  function PreloadableComponent(props: P): ReactNode {
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return createElement(Component, props);
  }
  PreloadableComponent.preload = () => fetchChunk().then(() => undefined);
  return PreloadableComponent;
}
