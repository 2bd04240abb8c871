// Exactly once across SIGKILL and re-runs: the day pipelines (one window per day, merged whole;
// offset, cursor, single and split paging). See crash-suite.ts.
import { describeCrashes } from './crash-suite.js';

describeCrashes(['page_views', 'page_visitors', 'searches', 'assistant_callers', 'feedback_by_page']);
