/**
 * The schedule without --cron or DOCS_ETL_CRON: nightly at 02:00. `status` and `sync` estimate a
 * backfill at this cadence before runs show one; its own module so they need not load `schedule`.
 */
export const DEFAULT_CRON = '0 2 * * *';
