// The warehouse's DuckDB settings by default, apart from the module that opens it: the config's
// grammar reads them in every CLI process, a usage error included, and must not load the engine's
// native binding to know them (src/cli/commands/sync-action.ts says what that costs).
/**
 * DuckDB's own defaults take 80% of RAM and every core; a scheduled job sharing a host should not.
 * Measured (docs/performance.md): the peak of a sync is dominated by DuckDB's JSON reading and its
 * checkpoints, not by this buffer pool limit; 128MB costs nothing in speed, 64MB a third of it.
 */
export const DEFAULT_MEMORY_LIMIT = '128MB';
export const DEFAULT_THREADS = 2;
