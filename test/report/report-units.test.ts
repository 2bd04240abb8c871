// The report's small rules: the period in UTC days, HTML escaping, JSON inside a <script>.
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, raw, scriptJson } from '../../src/outputs/report/html.js';
import { periodDays, reportPeriod } from '../../src/outputs/report/period.js';

const H = 3_600_000;
const D = 24 * H;

describe('report period', () => {
  it('is whole UTC days ending with the UTC day of now, and the same number of days before it', () => {
    // 23:30 in UTC-05:00 is already the next UTC day.
    const p = reportPeriod(new Date('2026-03-01T23:30:00-05:00'), 30 * D);
    expect(p).toMatchObject({ days: 30, from: '2026-02-01', to: '2026-03-02', prevFrom: '2026-01-02', prevTo: '2026-01-31' });
    expect(p.dayList).toHaveLength(30);
    expect(p.dayList[0]).toBe('2026-02-01');
    expect(p.dayList.at(-1)).toBe('2026-03-02');
    expect(reportPeriod(new Date('2026-11-01T00:00:00Z'), D)).toMatchObject({ from: '2026-11-01', to: '2026-11-01', prevFrom: '2026-10-31', prevTo: '2026-10-31' });
  });

  it('rounds a duration up to whole days and refuses nothing or more than a year', () => {
    expect(periodDays(1)).toBe(1);
    expect(periodDays(36 * H)).toBe(2);
    expect(periodDays(7 * D)).toBe(7);
    expect(periodDays(366 * D)).toBe(366);
    expect(() => periodDays(0)).toThrow(/must be positive/);
    expect(() => periodDays(367 * D)).toThrow(/at most 366d/);
  });
});

describe('report HTML', () => {
  it('escapes every interpolated value unless it is markup we built', () => {
    const evil = `<img src=x onerror="alert('1')"> & </script>`;
    expect(escapeHtml(evil)).toBe('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; &lt;/script&gt;');
    expect(html`<td title="${evil}">${evil}</td>`.value).toBe(`<td title="${escapeHtml(evil)}">${escapeHtml(evil)}</td>`);
    expect(html`<p>${[evil, html`<b>${evil}</b>`, null, false, 3]}</p>`.value)
      .toBe(`<p>${escapeHtml(evil)}<b>${escapeHtml(evil)}</b>3</p>`);
    expect(html`${raw('<br>')}`.value).toBe('<br>');
  });

  it('JSON for a script element cannot close it and parses back unchanged', () => {
    const value = { q: '</script><script>alert(1)</script><!-- \u2028\u2029 & >', n: [1, 2.5, null] };
    const text = scriptJson(value);
    expect(text).not.toMatch(/<|>|&|\u2028|\u2029/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
