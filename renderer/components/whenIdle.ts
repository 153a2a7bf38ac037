/**
 * Runs `work` when the page has nothing better to do (after what is being drawn now), or within a second at the
 * latest; returns the cancel, for an effect's cleanup.
 */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: 1000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, 200);
  return () => clearTimeout(handle);
}
