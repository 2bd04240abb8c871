// Aligned tables on a terminal of width 0 or a tiny one (issue 34, item 6): a width of 0 is "not
// known" (120 columns), and no column is cut below its floor, a kept label column below 40.
import { describe, expect, it } from 'vitest';
import { formatFitted } from '../../src/cli/format-rows.js';

const label = 'How do I rotate an API key without downtime?';
const result = {
  columns: ['project_id', 'rank', 'label', 'turns', 'examples'],
  rows: [{ project_id: 'docs-main', rank: 1, label, turns: 1234, examples: 'x'.repeat(300) }],
};
const cellsOf = (out: string) => out.split('\n')[2]!.split(/ {2,}/);

describe('formatFitted on narrow terminals', () => {
  it('treats a width of 0 as unknown: the label is whole, the table 120 columns wide', () => {
    const out = formatFitted(result, 0, ['label']);
    expect(out).toContain(label);
    expect(Math.max(...out.split('\n').map((l) => l.length))).toBe(120);
  });

  it('keeps every column at its floor on a tiny terminal, the label at 40', () => {
    const [project, rank, cut, turns, examples] = cellsOf(formatFitted(result, 10, ['label']));
    expect(project).toBe('docs-ma…');
    expect(rank).toBe('1');
    expect(cut).toBe(`${label.slice(0, 39)}…`);
    expect(turns).toBe('1234');
    expect(examples).toBe('xxxxxxx…');
  });

  it('cuts the widest columns first and fits the width when it can', () => {
    const out = formatFitted(result, 100, ['label']);
    expect(out).toContain(label);
    expect(Math.max(...out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
  });
});
