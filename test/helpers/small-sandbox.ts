// A sandbox history small enough for tests whose point is not volume (a damaged file, a lock, a
// schedule, a budget refusal): a week of history and a small site, so a first sync reads about 75
// pages instead of about 190 (7 pipelines × 30 days): about 7.5 s of CPU instead of 11.5 s
// (measured on one CLI sync of every pipeline). Tests about
// paging, truncation or windows splitting keep their own sizes.
import { defaultSandboxOptions, type SandboxOptions } from '../../src/tools/sandbox/index.js';

/** Each day fits one page of each site endpoint (feedback, searches, views, visitors). */
export const SMALL_SITE: SandboxOptions['site'] = { pages: 40, feedbackPerDay: 30, searchesPerDay: 300, viewsPerDay: 2000 };

/** defaultSandboxOptions with a week of history, 600 turns and SMALL_SITE; `overrides` win. */
export function smallSandboxOptions(overrides: Partial<SandboxOptions> = {}): SandboxOptions {
  return defaultSandboxOptions({ conversations: 600, historyDays: 7, site: SMALL_SITE, ...overrides });
}
