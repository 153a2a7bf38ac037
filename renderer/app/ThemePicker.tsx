import type { ReactNode } from 'react';
import type { ThemePreference } from '../../engine/contracts/shell-api';
import { testIds } from '../testIds';
import { useTheme } from './theme';

/** System, light or dark; the choice is remembered. */
export function ThemePicker(): ReactNode {
  const { preference, setPreference } = useTheme();
  return (
    <label className="theme-picker">
      <span className="visually-hidden">Theme</span>
      <select
        aria-label="Theme"
        data-testid={testIds.theme.picker}
        value={preference}
        onChange={(e) => setPreference(e.target.value as ThemePreference)}
      >
        <option value="system">Theme: system</option>
        <option value="light">Theme: light</option>
        <option value="dark">Theme: dark</option>
      </select>
    </label>
  );
}
