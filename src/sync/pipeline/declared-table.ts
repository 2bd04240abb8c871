// A warehouse table declared with its columns (a pipeline's `tables`), as dlt derives a table's DDL
// from declared hints: its CREATE TABLE (a table new to the warehouse is created from it; numbered
// migrations stay for changes to existing tables) and the daily merge (replace-day-sql.ts) are
// generated from it. Every declared table of a daily pipeline starts with `project_id` and `day`
// and ends with `read_at` (when the day was read); the declaration names the columns between.
import { quotedIdentifier } from '../../core/sql-quoting.js';
import type { LakeTable } from './lake-table.js';

/**
 * A column: its DuckDB type ('BIGINT', 'VARCHAR'…; NOT NULL unless it ends with '?'), taken from
 * the staged row's column of the same name; or an object for another source: 'day', the day's
 * column of that name in `batch_days` (in a 'record' table); 'window-rows', the number of rows the
 * day's read kept in the pipeline's 'record' table (in a 'day' table).
 */
export type DeclaredColumn = string | { type: string; value: 'day' | 'window-rows' };

export interface DeclaredTable {
  name: string;
  /**
   * 'record': one row per staged record (the view `stage`, after the key's one read per key);
   * 'day': one row per day read (the table `batch_days` its stage SQL builds).
   */
  rows: 'record' | 'day';
  /** Columns between project_id, day and read_at, in order; the staged row's column of the same name. */
  columns: Readonly<Record<string, DeclaredColumn>>;
}

export interface Column { name: string; type: string; notNull: boolean; value: 'staged' | 'day' | 'window-rows' | 'now' }

/** All of a table's columns in order, the implicit ones included. */
export function columnsOf(t: DeclaredTable): Column[] {
  const declared = Object.entries(t.columns).map(([name, c]): Column => {
    const type = typeof c === 'string' ? c : c.type;
    return { name, type: type.replace(/\?$/, ''), notNull: !type.endsWith('?'), value: typeof c === 'string' ? 'staged' : c.value };
  });
  return [
    { name: 'project_id', type: 'VARCHAR', notNull: true, value: 'staged' },
    { name: 'day', type: 'DATE', notNull: true, value: 'staged' },
    ...declared,
    { name: 'read_at', type: 'TIMESTAMPTZ', notNull: true, value: 'now' },
  ];
}

/** CREATE TABLE IF NOT EXISTS of a declared table (a no-op for a table a migration created). */
export function createTableSql(t: DeclaredTable): string {
  const cols = columnsOf(t).map((c) => `${quotedIdentifier(c.name)} ${c.type}${c.notNull ? ' NOT NULL' : ''}`);
  return `CREATE TABLE IF NOT EXISTS ${quotedIdentifier(t.name)} (${cols.join(', ')})`;
}

/** The lake's SELECT of a declared table: its columns, in order (docs/lake.md). */
export function lakeSelectSql(t: DeclaredTable): string {
  return `SELECT ${columnsOf(t).map((c) => quotedIdentifier(c.name)).join(', ')} FROM ${quotedIdentifier(t.name)}`;
}

/** The lake declaration of a declared table no pipeline lists in its `lake`: by day, in key order. */
export function declaredLake(t: DeclaredTable, key: readonly string[]): LakeTable {
  const order = t.rows === 'record' ? ['day', ...key.filter((k) => k !== 'project_id' && k !== 'day')] : ['day'];
  return { name: t.name, select: `(the declared columns of ${t.name})`, sql: lakeSelectSql(t), layout: { by: 'project-day', column: 'day', type: 'date' }, order };
}
