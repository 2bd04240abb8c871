// The report's daily series, one entry per day of the period, with what is known of that day: its
// numbers when its assistant turns are loaded (a loaded day without turns is a true 0), none when
// they are not (`missing`: shown as `–`, never as 0), and today as `partial` (so far).
import { count, percent } from './format.js';
import { html, type Html } from './html.js';
import { daysLabel, type ReportPeriod } from './period.js';
import type { ReportData } from './report-data.js';

export type DayState = 'loaded' | 'missing' | 'partial';
export interface DailyPoint { day: string; state: DayState; turns: number | null; unanswered: number | null }

export function dailySeries(d: ReportData, p: ReportPeriod): DailyPoint[] {
  const byDay = new Map(d.daily.map((r) => [r.day, r]));
  const missing = new Set(d.daysNotLoaded);
  return p.dayList.map((day) => {
    const r = byDay.get(day);
    if (day === p.to) return { day, state: 'partial', turns: r?.turns ?? 0, unanswered: r?.unanswered ?? 0 };
    // Turns on a day coverage calls missing (read in part) are shown: they exist; the state says more may.
    if (missing.has(day) && !r) return { day, state: 'missing', turns: null, unanswered: null };
    return { day, state: missing.has(day) ? 'missing' : 'loaded', turns: r?.turns ?? 0, unanswered: r?.unanswered ?? 0 };
  });
}

/** The series as a table under the charts: `–` for days not loaded, today labelled as partial. */
export function dailyTable(d: ReportData, p: ReportPeriod): Html {
  const rows = dailySeries(d, p).map((x) => {
    const label = x.state === 'partial' ? html`${x.day} <span class="partial-day">(today so far: partial)</span>`
      : x.state === 'missing' ? html`${x.day} <span class="missing-day">${x.turns === null ? '(not loaded)' : '(partly loaded)'}</span>` : x.day;
    const cell = (v: number | null) => (v === null ? html`<td class="num" title="not loaded">–</td>` : html`<td class="num">${count(v)}</td>`);
    const rate = x.turns === null || x.unanswered === null ? html`<td class="num" title="not loaded">–</td>` : html`<td class="num">${percent(x.unanswered, x.turns)}</td>`;
    return html`<tr data-day="${x.day}" data-state="${x.state}"><td>${label}</td>${cell(x.turns)}${cell(x.unanswered)}${rate}</tr>\n`;
  });
  return html`<details id="daily-table"><summary>Per day (${daysLabel(p)})</summary>
<div class="table-wrap"><table data-table="daily"><thead><tr><th scope="col">Day</th><th scope="col">Turns</th><th scope="col">Unanswered</th><th scope="col">Unanswered rate</th></tr></thead>
<tbody>
${rows}</tbody></table></div></details>`;
}
