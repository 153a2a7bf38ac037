import { useEffect, useRef } from 'react';
import { createShortcutMatcher, type ShortcutAction } from './shortcuts';

/** Calls `onAction` for the page's shortcuts (see shortcuts.ts); typing in fields is never taken. */
export function useKeyboardShortcuts(onAction: (action: ShortcutAction) => void): void {
  const latest = useRef(onAction);
  latest.current = onAction;
  useEffect(() => {
    const match = createShortcutMatcher();
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.isComposing) return;
      const action = match({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        inTextField: isTextField(event.target),
        timeMs: event.timeStamp,
      });
      if (!action) return;
      event.preventDefault();
      latest.current(action);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
}

/** Focuses the first element matching `selector` once it is on the page (it may appear after a navigation). */
export function focusWhenPresent(selector: string, timeoutMs = 3_000): void {
  const deadline = performance.now() + timeoutMs;
  const attempt = (): void => {
    const element = document.querySelector<HTMLElement>(selector);
    if (element) {
      element.focus();
      element.scrollIntoView?.({ block: 'nearest' });
      return;
    }
    if (performance.now() < deadline) requestAnimationFrame(attempt);
  };
  attempt();
}
