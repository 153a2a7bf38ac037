import { useCallback, useSyncExternalStore } from 'react';
import { formatRoute, parseHash, type Route } from './route';

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

const getHash = (): string => window.location.hash;

/** The current route from the URL hash, and a navigate function that writes it. */
export function useHashRoute(): [Route, (route: Route, options?: { replace?: boolean }) => void] {
  const hash = useSyncExternalStore(subscribe, getHash, getHash);
  const navigate = useCallback((route: Route, options?: { replace?: boolean }) => {
    const next = formatRoute(route);
    if (next === window.location.hash) return;
    if (options?.replace) {
      window.history.replaceState(window.history.state, '', next);
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    } else {
      window.location.hash = next;
    }
  }, []);
  return [parseHash(hash), navigate];
}

/** An href for a route, so links are real links (middle-click, copy link address). */
export function hrefFor(route: Route): string {
  return formatRoute(route);
}
