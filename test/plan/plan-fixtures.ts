// Entries, streams and a readable rendering of plan decisions for the admission and after-window
// tables: windows shown as hours from T0, with their estimate and flags.
import { PIPELINES } from '../../pipelines/index.js';
import type { Purpose } from '../../src/core/window.js';
import type { PipelineDefinition } from '../../src/sync/pipeline/definition.js';
import type { PlanEntry } from '../../src/sync/plan/plan-entry.js';

export const H = 3_600_000;
export const T0 = Date.parse('2026-06-01T00:00:00Z');
export const pipeline = (name: string) => (PIPELINES as readonly PipelineDefinition[]).find((p) => p.name === name)!;
/** feedback: event time, 100 rows a page. */
export const FEEDBACK = pipeline('feedback');
/** page_views: whole days, 250 rows a page. */
export const VIEWS = pipeline('page_views');
/** One page an hour for feedback. */
export const PAGE_AN_HOUR = 100 / H;

export function entry(purpose: Purpose, fromH: number, toH: number, estRequests: number, more: Partial<PlanEntry> = {}): PlanEntry {
  return {
    projectId: 'p', pipeline: 'feedback', optional: purpose !== 'head' && purpose !== 'catchup',
    window: { from: new Date(T0 + fromH * H), to: new Date(T0 + toH * H), purpose, estRequests }, ...more,
  };
}

const hours = (d: Date) => Number(((d.getTime() - T0) / H).toFixed(1));

/** `purpose [from,to) est N` with the stream when not p/feedback, and its flags. */
export function show(e: PlanEntry): string {
  const w = e.window;
  const from = w.from.getTime() === 0 ? 'beginning' : `${hours(w.from)}h`;
  const who = e.projectId === 'p' && e.pipeline === 'feedback' ? '' : `${e.projectId}/${e.pipeline} `;
  const flags = [e.cut ? ' cut' : '', e.retried ? ' retried' : '', w.resume ? ' resume' : ''].join('');
  return `${who}${w.purpose} [${from},${hours(w.to)}h) est ${w.estRequests}${flags}`;
}
