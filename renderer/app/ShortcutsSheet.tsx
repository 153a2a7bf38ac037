import { useEffect, useRef, type ReactNode } from 'react';
import { testIds } from '../testIds';
import { SHORTCUTS } from './shortcuts';

const KEY_LABEL: Record<string, string> = { Escape: 'Esc' };

/** The "Keyboard shortcuts" sheet (`?`): a modal dialog listing every shortcut. */
export function ShortcutsSheet({ open, desktop, onClose }: { open: boolean; desktop: boolean; onClose: () => void }): ReactNode {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="sheet"
      aria-labelledby="shortcuts-title"
      data-testid={testIds.shortcuts.sheet}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (e.target === dialog.current) onClose();
      }}
    >
      <div className="sheet__content">
        <header className="sheet__header">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <button type="button" className="button button--small" onClick={onClose}>
            Close
          </button>
        </header>
        <table className="table shortcuts-table">
          <tbody>
            {SHORTCUTS.map((shortcut) => (
              <tr key={shortcut.action}>
                <td className="nowrap">
                  {shortcut.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 ? <span className="muted"> then </span> : null}
                      <kbd>{KEY_LABEL[k] ?? k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{shortcut.description}</td>
              </tr>
            ))}
            {desktop ? (
              <tr>
                <td className="nowrap">
                  <kbd>Ctrl</kbd>/<kbd>⌘</kbd> <kbd>R</kbd>
                </td>
                <td>Reload the data (not the page)</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </dialog>
  );
}
