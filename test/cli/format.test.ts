// Times on stdout are ISO 8601 in full: never a locale string, never cut to fit a column.
import { describe, expect, it } from 'vitest';
import { formatInstant, formatTable } from '../../src/cli/format.js';

describe('times in human output', () => {
  it('formatInstant gives ISO 8601 in UTC for dates and DuckDB timestamp strings', () => {
    expect(formatInstant(new Date('2026-11-05T02:00:00+09:00'))).toBe('2026-11-04T17:00:00.000Z');
    expect(formatInstant('2026-11-05 02:00:00+00')).toBe('2026-11-05T02:00:00.000Z');
    expect(formatInstant(null)).toBe('');
  });

  it('a table cuts long text at 60 characters but never a cell holding a time', () => {
    const window = '2026-11-04T17:00:00.000Z → 2026-11-05T17:00:00.000Z (12 pages, resuming)';
    const text = 'x'.repeat(80);
    const out = formatTable([{ open_window: window, note: text, at: new Date('2026-11-05T02:00:00Z') }]);
    expect(out).toContain(window);
    expect(out).toContain(`${'x'.repeat(57)}...`);
    expect(out).toContain('2026-11-05T02:00:00.000Z');
  });
});
