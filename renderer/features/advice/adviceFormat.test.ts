import { describe, expect, it } from 'vitest';
import { formatBusy, formatRatio, formatRecords, spreadSentence } from './adviceFormat';

describe('the Advice panel formatting', () => {
  it('writes the figures as the service gives them, a dash when there is none', () => {
    expect(formatRatio(23.4)).toBe('23.40×');
    expect(formatRatio(null)).toBe('—');
    expect(formatBusy(999.6)).toBe('1,000 ms/s');
    expect(formatBusy(Number.NaN)).toBe('—');
    expect(formatRecords(400.4)).toBe('400 records/s');
    expect(formatRecords(12.54)).toBe('12.5 records/s');
  });

  it('says how many distinct subtasks the salted keys reach beside what random placement gives', () => {
    expect(spreadSentence(8, 32, 7, 7.1234)).toBe('8 salted keys over 32 subtasks: 7 distinct subtasks (about 7.1 expected at random).');
    expect(spreadSentence(1, 4, 1, null)).toBe('1 salted key over 4 subtasks: 1 distinct subtask.');
    expect(spreadSentence(3, 4, null, null)).toBe('3 salted keys over 4 subtasks: how many distinct subtasks is not known.');
  });
});
