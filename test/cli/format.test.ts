// Times on stdout are ISO 8601 in full: never a locale string, never cut to fit a column.
import { describe, expect, it } from 'vitest';
import { formatInstant, formatRunNotes, formatTable } from '../../src/cli/format.js';
import type { ProjectRunSummary } from '../../src/sync/run/summary.js';

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

describe("a schedule run's line", () => {
  const run = (projectId: string, pipeline: string, error: string | null): ProjectRunSummary => ({
    runId: `${projectId}-${pipeline}`, projectId, pipeline, status: error ? 'budget_exhausted' : 'succeeded', windows: [], deferred: 0, pages: 2, requests: 2, upserted: 10, quarantined: 0, error,
  });

  it('says a budget stop shared by an organization\'s streams once, with how many it stopped; a stream\'s own error stays with it', () => {
    const budget = 'rate budget of 100 requests per 1h used up; the next slot frees in 40m, longer than --max-wait 5m';
    const notes = formatRunNotes([run('a', 'searches', budget), run('a', 'feedback', budget), run('b', 'searches', 'GET … answered 404'), run('c', 'searches', null)]);
    expect(notes).toEqual([
      'a/searches budget_exhausted, 2 pages, 10 turns',
      'a/feedback budget_exhausted, 2 pages, 10 turns',
      'b/searches budget_exhausted, 2 pages, 10 turns: GET … answered 404',
      'c/searches succeeded, 2 pages, 10 turns',
      `${budget} (2 streams)`,
    ]);
    expect(notes.join('; ').split(budget)).toHaveLength(2);
  });
});
