import type { ReactNode } from 'react';
import { WINDOWS } from './format';

/** "the last N": the windows a diagnosis or a report can cover. */
export function WindowSelect({ value, onChange, label, testId }: { value: number; onChange: (ms: number) => void; label?: string; testId?: string }): ReactNode {
  return (
    <select value={value} onChange={(e) => onChange(Number(e.target.value))} aria-label={label} data-testid={testId}>
      {WINDOWS.map((w) => (
        <option key={w.ms} value={w.ms}>
          the last {w.label}
        </option>
      ))}
    </select>
  );
}
