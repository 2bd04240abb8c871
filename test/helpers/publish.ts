// Tests that build a warehouse by hand (not by a sync) publish its read snapshot the way a sync's
// end does, because reader commands (status, report, export-parquet, query) read only the snapshot.
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { defaultReadPath, publishSnapshot } from '../../src/sync/publish/snapshot.js';

/** Copies the warehouse to its default read path (state/read/<name>), as the "copy" read surface does. */
export async function publishForReaders(warehouse: string, readPath = defaultReadPath(warehouse)): Promise<void> {
  const wh = await openWarehouse(warehouse);
  try {
    await publishSnapshot(wh.conn, warehouse, readPath);
  } finally {
    wh.close();
  }
}
