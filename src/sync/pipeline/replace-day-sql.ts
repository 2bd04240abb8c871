// The 'replace-day' merge, generated from a daily pipeline's declaration (its key, its declared
// tables, the columns that count a row as changed) as the one-read-per-key dedupe is: each day of
// the batch (`batch_days`, one row per window: project_id, window_id, day) replaces that day's rows
// in every declared table, and `merge_stats` counts, per window, the rows written, those whose key
// the day's previous read did not have, and those whose `changed` columns differ from it. The
// stage SQL's contract: the view `stage` (the record rows, one per key) and the table `batch_days`.
// Identifiers come from the declaration, quoted; the one value, the read time, is bound ($now).
import { quotedIdentifier as q } from '../../core/sql-quoting.js';
import { FatalError } from '../../core/errors.js';
import { columnsOf, type Column, type DeclaredTable } from './declared-table.js';
import type { PipelineDefinition, ReplaceDay } from './definition.js';

const NOW = 'CAST($now AS TIMESTAMPTZ)';
const SAME_DAY = '(project_id, day) IN (SELECT project_id, day FROM batch_days)';

/** The merge's statements, in order; each one that reads `$now` is run with it bound. */
export function replaceDaySql(p: PipelineDefinition, merge: ReplaceDay): string[] {
  const records = recordTable(p);
  const keyed = p.key.filter((k) => k !== 'project_id' && k !== 'day');
  return [
    previousReadSql(records, keyed, merge.changed),
    ...p.declaredTables.map((t) => `DELETE FROM ${q(t.name)} WHERE ${SAME_DAY}`),
    ...p.declaredTables.map(insertSql),
    statsSql(keyed, merge.changed),
  ];
}

/** The one table of a record per staged row: its rows are the ones counted. */
function recordTable(p: PipelineDefinition): DeclaredTable {
  const tables = p.declaredTables.filter((t) => t.rows === 'record');
  if (tables.length !== 1) throw new FatalError(`pipeline ${p.name}: a 'replace-day' merge needs exactly one declared table of rows 'record' (it has ${tables.length})`);
  return tables[0]!;
}

/** `merge_old`: the stored rows of the batch's days, before they are replaced, by window. */
function previousReadSql(t: DeclaredTable, keyed: readonly string[], changed: readonly string[]): string {
  const cols = [...keyed, ...changed].map((c) => `, o.${q(c)}`).join('');
  return `CREATE OR REPLACE TEMP TABLE merge_old AS
SELECT d.window_id${cols}
FROM ${q(t.name)} o JOIN batch_days d ON d.project_id = o.project_id AND d.day = o.day`;
}

function insertSql(t: DeclaredTable): string {
  const cols = columnsOf(t);
  const fromDay = t.rows === 'day' || cols.some((c) => c.value === 'day');
  const source = t.rows === 'day' ? 'batch_days d'
    : fromDay ? 'stage s JOIN batch_days d ON d.project_id = s.project_id AND d.window_id = s.window_id' : 'stage s';
  return `INSERT INTO ${q(t.name)} (${cols.map((c) => q(c.name)).join(', ')})
SELECT ${cols.map((c) => valueOf(t, c)).join(', ')}
FROM ${source}`;
}

function valueOf(t: DeclaredTable, c: Column): string {
  switch (c.value) {
    case 'now': return NOW;
    case 'window-rows': return `CAST((SELECT count(*) FROM stage s WHERE s.project_id = d.project_id AND s.window_id = d.window_id) AS ${c.type})`;
    case 'day': return `d.${q(c.name)}`;
    case 'staged': return `${t.rows === 'day' ? 'd' : 's'}.${q(c.name)}`;
  }
}

/** `merge_stats`: per window of the batch, rows written, new keys, keys whose `changed` columns moved. */
function statsSql(keyed: readonly string[], changed: readonly string[]): string {
  const match = keyed.map((k) => ` AND o.${q(k)} = s.${q(k)}`).join('');
  const moved = changed.map((c) => `o.${q(c)} IS DISTINCT FROM s.${q(c)}`).join(' OR ') || 'false';
  return `CREATE OR REPLACE TEMP TABLE merge_stats AS
SELECT d.window_id,
       count(s.window_id)                                                      AS rows,
       count(s.window_id) FILTER (WHERE o.window_id IS NULL)                   AS new_rows,
       count(s.window_id) FILTER (WHERE o.window_id IS NOT NULL AND (${moved})) AS changed_rows
FROM batch_days d
LEFT JOIN stage s ON s.project_id = d.project_id AND s.window_id = d.window_id
LEFT JOIN merge_old o ON o.window_id = s.window_id${match}
GROUP BY d.window_id`;
}
