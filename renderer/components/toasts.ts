import { useSyncExternalStore } from 'react';

/**
 * Short messages in a corner of the page: an operation that finished, a file that was saved.
 * Errors stay until closed; the rest leave after a few seconds.
 */
export type ToastTone = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  body?: string;
}

const VISIBLE_MS = 8_000;
/** A burst of messages keeps only the latest few on screen. */
const MAX_TOASTS = 4;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function showToast(toast: Omit<Toast, 'id'>): number {
  const id = nextId++;
  publish([...toasts, { ...toast, id }].slice(-MAX_TOASTS));
  if (toast.tone !== 'error') setTimeout(() => dismissToast(id), VISIBLE_MS);
  return id;
}

export function dismissToast(id: number): void {
  if (toasts.some((t) => t.id === id)) publish(toasts.filter((t) => t.id !== id));
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
    () => toasts,
  );
}
