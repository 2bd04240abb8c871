// A window the API pages without end: `hasMore` with a fresh cursor on and on. Two signs end the
// read: NO_PROGRESS_PAGES empty pages in a row (nothing a real window holds looks like that), or
// the window's page cap (src/sync/plan/page-cap.ts: more pages than its plan justifies). The run
// parks the window (src/sync/plan/park-backoff.ts) instead of reading it again on every run.
import { FatalError } from '../../core/errors.js';

/** Empty pages in a row that say there is more: the read ends there. */
export const NO_PROGRESS_PAGES = 16;

export class EndlessPagingError extends FatalError {
  override name = 'EndlessPagingError';
}
