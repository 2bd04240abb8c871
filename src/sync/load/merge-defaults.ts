// The merge's batch size by default, apart from the merger: the config's grammar reads it in every
// CLI process, a usage error included, and must not load DuckDB to know it.
/**
 * Largest batch by default, in records (config mergeBatchRows). A lower cap bounds what one MERGE
 * reads at once; measured at 1M turns, 20,000 did not lower the merge phase's peak RSS (456 MB
 * against 451 MB at 100,000: batches rarely exceed 20 pages while fetching), so the default stays.
 */
export const DEFAULT_MERGE_BATCH_ROWS = 100_000;
