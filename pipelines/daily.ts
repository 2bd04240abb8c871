// What the daily-aggregate pipelines share: a day is read once it is over, and once more when its
// late data has settled (12 h after it ends, within 12 h more, so a nightly run does it).
import type { RereadStage } from '../src/sync/plan/reread-schedule.js';

export const DAILY_REREADS: readonly RereadStage[] = [{ afterMs: 12 * 3_600_000, withinMs: 12 * 3_600_000 }];
