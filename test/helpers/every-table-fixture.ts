// The warehouse of "every pipeline synced, threads too, and a static export" over two projects: what
// test/lake's every-table files export and compare (pre-synced once per run, see presynced.ts).
import type { PresyncedSpec } from './presynced.js';

export const EVERY_TABLE_FIXTURE: PresyncedSpec = {
  key: 'mint_lake_every_table_key_01',
  projects: ['alpha', 'beta'],
  now: Date.parse('2026-03-11T15:30:00Z'),
  sandbox: {
    conversations: 300, historyDays: 5, seed: 2401, malformedRate: 0.02, pagesPerSite: 12,
    site: { pages: 60, feedbackPerDay: 40, searchesPerDay: 300, viewsPerDay: 2000 },
  },
  backfillDays: 6,
  // Threads are read by key from stored unanswered turns: the second run reads them.
  syncs: 2,
  staticExportDomain: 'docs.example.com',
};
