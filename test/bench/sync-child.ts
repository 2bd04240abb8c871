// The bench's sync process: `node .bench-build/test/bench/sync-child.js '<MeasuredSyncInput JSON>'` with the
// key in BENCH_API_KEY. Runs one measured sync and prints its result as one JSON line on stdout.
// SIGTERM stops the run at its next checkpoint (as `docs-etl sync` does).
import { measuredSync, type MeasuredSyncInput } from './measured-sync.js';

const input = JSON.parse(process.argv[2] ?? '{}') as MeasuredSyncInput;
const controller = new AbortController();
process.once('SIGTERM', () => controller.abort());
try {
  const result = await measuredSync(input, process.env.BENCH_API_KEY ?? '', controller.signal);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (err) {
  // One line (e.g. DuckDB out of memory, naming --memory-limit), never a stack trace; exit 1.
  process.stderr.write(`sync-child: error: ${(err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ')}\n`);
  process.exitCode = 1;
}
