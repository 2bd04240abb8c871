// How a warehouse table reaches the Parquet lake, declared as data next to whoever owns the table
// (a pipeline's `lake`, the run history, the static export). The exporter (src/outputs/lake) reads these
// declarations and knows no table by name: a pipeline added later reaches the lake by declaring
// its tables here. The lake layout of a declared table is a public interface (docs/lake.md).
import { sqlFile } from '../../warehouse/sql-files.js';

/** How a table's rows are split into files. */
export type LakeLayout =
  /**
   * Hive partitions `project_id=<p>/date=YYYY-MM-DD/`, one file each. `column` is the time column:
   * 'instant' (TIMESTAMPTZ, partitioned by its UTC day) or 'date' (a DATE such as a daily table's
   * local `day`, partitioned by that day). The column must never be NULL.
   */
  | { by: 'project-day'; column: string; type: 'instant' | 'date' }
  /** One file per project: `project_id=<p>/` (tables with no usable time column). */
  | { by: 'project' }
  /** One file for the whole table (small tables, or tables with no project). */
  | { by: 'none' };

export interface LakeTable {
  /** Lake directory, also the warehouse table's name (public: readers glob `<name>/**\/*.parquet`). */
  name: string;
  /**
   * SQL file (under sql/) with one SELECT of the lake's columns, in order: the file's schema is a
   * contract, not whatever the table has. JSON columns are cast to VARCHAR. For 'project-day' and
   * 'project' layouts it must select `project_id` and the layout's column.
   */
  select: string;
  /** The SELECT itself, generated from a declared table's columns (`select` then only names it). */
  sql?: string;
  layout: LakeLayout;
  /** Row order inside a file (column names of the SELECT). */
  order: readonly string[];
  /**
   * How a run's changes to a 'project-day' table show, for the read surface's change detection
   * (src/sync/publish/surface-days.ts); absent: every day is signed at every publish by a hash of
   * its rows. `stamp`: a column every merge sets to its own time on each row it writes or re-reads
   * (only the days of rows stamped since the last publish are signed again); `stampedBy`: a table
   * whose stamp covers this one's rows (rewritten with it); `versions`: columns whose per-day
   * maximum moves whenever a row changes (the day's signature is its row count and their maxima,
   * cheaper than hashing the rows).
   */
  changes?: { stamp?: string; stampedBy?: string; versions?: readonly string[] };
}

/** The table's lake SELECT: generated, or its SQL file's, without a trailing semicolon. */
export function lakeSelect(t: LakeTable): string {
  return (t.sql ?? sqlFile(t.select)).trim().replace(/;$/, '');
}
