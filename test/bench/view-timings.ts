// Time of each analytics view on a synced warehouse: every row and column is computed (the view is
// materialized into a temporary table), cold (first run) and warm (best of the next runs).
import { openWarehouse } from '../../src/warehouse/warehouse.js';

export const BENCH_VIEWS = [
  'daily_unanswered_rate', 'category_breakdown', 'top_unanswered_questions', 'most_cited_sources', 'unanswered_by_page', 'threads',
] as const;

export interface ViewTiming {
  view: string;
  rows: number;
  coldMs: number;
  warmMs: number;
}

export async function viewTimings(warehouse: string, warmRuns = 3): Promise<ViewTiming[]> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  const { conn } = wh;
  try {
    const out: ViewTiming[] = [];
    for (const view of BENCH_VIEWS) {
      const once = async () => {
        const started = performance.now();
        await conn.run(`CREATE OR REPLACE TEMP TABLE bench_view AS SELECT * FROM ${view}`);
        return performance.now() - started;
      };
      const coldMs = await once();
      let warmMs = Infinity;
      for (let i = 0; i < warmRuns; i++) warmMs = Math.min(warmMs, await once());
      const rows = Number((await conn.runAndReadAll('SELECT count(*) FROM bench_view')).getRows()[0]![0]);
      out.push({ view, rows, coldMs, warmMs });
    }
    return out;
  } finally {
    wh.close();
  }
}
