// The coverage statement: for each source, how many complete days of the period are loaded, so a
// figure is never read as covering days that were never loaded (a backfill that has not reached
// them, a pipeline not run). The headline compares with the period before only when that period's
// assistant turns are loaded in full.
import { PIPELINES } from '../../../pipelines/index.js';
import type { PipelineDefinition } from '../../sync/pipeline/definition.js';
import { html, type Html } from './html.js';
import type { CoverageRow, ReportData } from './report-data.js';
import type { ReportPeriod } from './period.js';

/** The sources the statement lists, by pipeline name: their declared labels (pipelines/*.ts `label`, `reportCoverage`). */
const LABELS: ReadonlyMap<string, string> = new Map(
  (PIPELINES as readonly PipelineDefinition[]).filter((p) => p.reportCoverage).map((p) => [p.name, p.label]),
);

/** Complete days of the period: today (the period's last day) is still in progress. */
export const completeDays = (p: ReportPeriod): number => p.days - 1;

const rowOf = (d: ReportData, pipeline: string): CoverageRow | undefined => d.coverage.find((c) => c.pipeline === pipeline);

/** Why the period before cannot be compared with, or null when it can. */
export function comparisonGap(d: ReportData, p: ReportPeriod): string | null {
  const turns = rowOf(d, 'assistant_conversations');
  if (!turns) return null; // no coverage recorded (a warehouse written by an older version): as before
  if (turns.prevLoaded >= p.days) return null;
  return `no comparison: the period before (${p.prevFrom} → ${p.prevTo}) has ${turns.prevLoaded} of ${p.days} days of assistant turns loaded`;
}

export function renderCoverage(d: ReportData, p: ReportPeriod): Html {
  const rows = d.coverage.filter((c) => LABELS.has(c.pipeline));
  if (!rows.length) return html``;
  const full = completeDays(p);
  const items = rows.map((c) => {
    const partial = c.loaded < full;
    return html`<li data-source="${c.pipeline}" data-loaded="${c.loaded}" data-days="${full}" class="${partial ? 'partial' : 'full'}">${LABELS.get(c.pipeline)!}: <strong>${c.loaded} of ${full}</strong> days loaded${partial ? ' (sums and rankings of this source cover only these days)' : ''}</li>`;
  });
  return html`<section id="coverage" aria-labelledby="h-coverage">
<h2 id="h-coverage">What this report covers</h2>
<p class="intro">Complete days of ${p.from} → ${p.to} in the warehouse, per source (today is in progress and not counted). Figures of a source with fewer days loaded cover only those days.</p>
<ul class="coverage">${items}</ul>
</section>`;
}
