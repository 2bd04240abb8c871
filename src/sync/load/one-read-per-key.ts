// "One read per key", generated from the pipeline's declaration (as dlt generates its merge from
// declared keys): a batch may hold several reads of a key (a window re-read, a record a moving
// ranking served on two pages, a record repeated in one page); the merge keeps one, chosen by the
// declared tie-break, so no stage.sql hand-writes its own dedupe. Identifiers come from the
// declaration only, quoted; the SQL has no values. The stage SQL's contract: a table `stage_all`
// with the key's columns, `seq` (the page's sequence in its stream) and `ord` (the record's
// position in its page), and optionally `reject` (set on records DuckDB refused: they compete for
// nothing, quarantine takes them).
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quoting.js';
import { FatalError } from '../../core/errors.js';
import type { PipelineDefinition, TieBreak } from '../pipeline/definition.js';
import { sqlFile } from '../../warehouse/sql-files.js';


/** ORDER BY of each tie-break: the row ranked first is kept. */
const ORDER: Record<TieBreak, string> = {
  // the highest page sequence, then the last position in its page: the newest read
  latest: 'seq DESC, ord DESC',
  // the lowest page sequence, then the first position in its page: the first read
  first: 'seq ASC, ord ASC',
};

/** The DELETE keeping one row of `stage_all` per `key`, by `tieBreak`. */
export function oneReadPerKeySql(key: readonly string[], tieBreak: TieBreak, opts: { rejects: boolean }): string {
  if (!key.length) throw new FatalError('a pipeline key needs at least one column');
  return sqlFile('load/one-read-per-key.sql')
    .replaceAll('{key}', () => key.map(quotedIdentifier).join(', '))
    .replaceAll('{order}', () => ORDER[tieBreak])
    .replaceAll('{where}', () => (opts.rejects ? 'reject IS NULL' : 'true'));
}

/**
 * Applies the pipeline's rule to the staged batch (after its stage SQL, before its merge), unless
 * the pipeline declares that its stage SQL keeps its own rule. A key column the stage does not
 * produce is the declaration's error, named as such (the stream fails; nothing is lost).
 */
export async function keepOneReadPerKey(conn: DuckDBConnection, p: PipelineDefinition): Promise<void> {
  const tieBreak = p.tieBreak;
  if (typeof tieBreak !== 'string') return;
  const columns = new Set((await conn.runAndReadAll('DESCRIBE stage_all')).getRowObjectsJS().map((r) => String(r.column_name)));
  const missing = [...p.key, 'seq', 'ord'].filter((c) => !columns.has(c));
  if (missing.length) {
    throw new FatalError(`pipeline ${p.name}: its stage SQL (${p.load.stage}) has no column ${missing.join(', ')} for its declared key and tie-break`);
  }
  await conn.run(oneReadPerKeySql(p.key, tieBreak, { rejects: columns.has('reject') }));
}
