// The cut of a cap over questions counted by hash (sql/topics/questions.sql for the held questions,
// new-questions.sql for the tail's and an hour's): the cap'th largest count t and how many questions
// are asked more than t times (above), read from its one-row table and bound into the pick statement
// as values, not a LIMIT of a subquery. Every question asked more than t times is in; of those asked
// exactly t times the first (cap - above) by text fill the rest, and each is t turns, so the first
// take = (cap - above) * t of their turns by text are exactly theirs. No rows or a cap of 0: t is
// null and nothing is picked.
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quoting.js';
import { dropTempTables } from './temp-tables.js';

export interface CapCut {
  t: number | null;
  take: number;
}

/** Reads the cut from `table` (then dropped) for a cap of `cap` questions. */
export async function readCapCut(conn: DuckDBConnection, table: 'gap_hn_cut' | 'gap_qn_cut', cap: number): Promise<CapCut> {
  const [cut] = (await conn.runAndReadAll(`SELECT t, above FROM ${quotedIdentifier(table)}`)).getRowObjectsJS();
  await dropTempTables(conn, [table]);
  const t = cut?.t == null ? null : Number(cut.t);
  return { t, take: t === null ? 0 : (cap - Number(cut!.above)) * t };
}
