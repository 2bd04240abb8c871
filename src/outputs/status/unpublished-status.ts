// `docs-etl status` before the first publish: there is no read snapshot yet, and status must not
// open the writer's file (a sync starting meanwhile would fail on DuckDB's lock). What it can say
// without it: where the data will be, that nothing is published yet, and whether a sync is running
// (the writer lock file, not the warehouse). `--check` is unhealthy (exit 1): nothing has been read.
import { statSync } from 'node:fs';
import { writerLockHolder } from '../../warehouse/writer-lock.js';

export interface UnpublishedStatus {
  warehouse: string;
  read_path: string;
  /** Always false here; the full status (a published snapshot) has no such field. */
  published: false;
  /** The docs-etl process writing the warehouse now, if any. */
  sync_running: { pid: number; started_at: string; command: string } | null;
  warehouse_bytes: number | null;
  streams: [];
}

export const NO_SNAPSHOT_LINE = 'no read snapshot yet: the first sync publishes it';

export function unpublishedStatus(warehouse: string, readPath: string): UnpublishedStatus {
  const holder = writerLockHolder(warehouse);
  let bytes: number | null = null;
  try {
    bytes = statSync(warehouse).size;
  } catch {
    bytes = null;
  }
  return {
    warehouse, read_path: readPath, published: false, warehouse_bytes: bytes, streams: [],
    sync_running: holder ? { pid: holder.pid, started_at: holder.startedAt, command: holder.command } : null,
  };
}

export function renderUnpublished(s: UnpublishedStatus): string {
  return [
    `warehouse  ${s.warehouse}`,
    `read_path  ${s.read_path}  (${NO_SNAPSHOT_LINE})`,
    s.sync_running
      ? `sync       running: PID ${s.sync_running.pid}, started ${s.sync_running.started_at} (${s.sync_running.command})`
      : 'sync       none running; run `docs-etl sync`',
  ].join('\n');
}
