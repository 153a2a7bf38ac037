import { useEffect, useState, type ReactNode } from 'react';

/**
 * A value shown as code with a Copy button beside it. The clipboard may be refused (an insecure context, a denied
 * permission): then the button says so and the text stays selectable.
 */
export function CopyText({ text, label, testId }: { text: string; label: string; testId?: string }): ReactNode {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), 2000);
    return () => window.clearTimeout(timer);
  }, [state]);

  const onCopy = (): void => {
    const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (!clipboard) {
      setState('failed');
      return;
    }
    clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };

  return (
    <span className="copy-text" data-testid={testId}>
      <code className="mono copy-text__value">{text}</code>
      <button type="button" className="button button--tiny" onClick={onCopy} aria-label={`Copy ${label}`}>
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy it' : 'Copy'}
      </button>
    </span>
  );
}
