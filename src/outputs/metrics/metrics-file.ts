// `sync --metrics-file PATH`: the series in node_exporter's textfile-collector format, written after
// each run atomically (temporary file + rename, core/atomic-file.ts): the collector, a crash or a
// SIGKILL sees the previous file whole or the new one whole. A fresh registry each time, so the
// counters are the warehouse's totals: they survive restarts.
import { dirname } from 'node:path';
import { existsSync } from 'node:fs';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import { UsageError } from '../../core/errors.js';
import type { OpsView } from './ops-view.js';

/** Checked before the run: the folder must exist (node_exporter's --collector.textfile.directory). */
export function checkMetricsFile(path: string, what = '--metrics-file'): void {
  if (!existsSync(dirname(path))) throw new UsageError(`${what}: folder ${dirname(path)} does not exist`);
}

/** prom-client (about 0.1 s of CPU to load) is loaded by the first write: a sync without a metrics file never loads it. */
export async function writeMetricsFile(path: string, view: OpsView): Promise<void> {
  const { createOpsMetrics } = await import('./ops-metrics.js');
  const m = createOpsMetrics();
  m.update(view);
  writeFileAtomicSync(path, await m.registry.metrics());
}
