// Exactly once across SIGKILL and re-runs: the pipelines read in event windows (cursor pages,
// merged page by page). See crash-suite.ts.
import { describeCrashes } from './crash-suite.js';

describeCrashes(['assistant_conversations', 'feedback']);
