import type { ReactNode } from 'react';

export interface WindowOption<K extends string | number> {
  key: K;
  label: string;
}

/** The time windows a panel offers, as one radio group of small buttons; `children` follow them (e.g. "to now"). */
export function WindowChoice<K extends string | number>({
  label,
  options,
  chosen,
  onChoose,
  testId,
  children,
}: {
  label: string;
  options: readonly WindowOption<K>[];
  chosen: K;
  onChoose: (key: K) => void;
  testId: string;
  children?: ReactNode;
}): ReactNode {
  return (
    <span className="window-choice" role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <button key={o.key} type="button" role="radio" aria-checked={o.key === chosen} className={`button button--tiny${o.key === chosen ? ' button--primary' : ''}`} onClick={() => onChoose(o.key)}>
          {o.label}
        </button>
      ))}
      {children}
    </span>
  );
}
