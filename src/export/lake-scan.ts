// One walk of the lake at the start of a run (under the lake lock, so nothing else is writing):
// removes the temporary files a killed export left behind (they are never data) and lists the data
// files that exist with their sizes, so the plan can notice deleted or damaged files and the run can
// delete orphans.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isErrno } from './atomic-file.js';
import {
  DATA_FILE_RE, META_DIR, PARTITIONED_TABLES, SMALL_TABLES, TEMP_FILE_RE, unescapeHiveValue,
  type PartitionedTable,
} from './lake-layout.js';

export interface LakeFile {
  /** Lake-relative, '/'-separated. */
  rel: string;
  table: PartitionedTable;
  projectId: string;
  date: string;
}

export interface LakeScan {
  tempFilesRemoved: string[];
  /** Our data files under the partitioned tables, with the partition their path names. */
  partitionFiles: LakeFile[];
  /** Every data file found (partitioned and small tables), with its size in bytes. */
  files: Map<string, number>;
}

const PROJECT_DIR_RE = /^project_id=(.*)$/;
const DATE_DIR_RE = /^date=(\d{4}-\d{2}-\d{2})$/;

export function scanLake(outDir: string): LakeScan {
  const scan: LakeScan = { tempFilesRemoved: [], partitionFiles: [], files: new Map() };
  const visit = (rel: string, depth: number): void => {
    for (const ent of listDir(join(outDir, ...rel.split('/').filter(Boolean)))) {
      const child = rel ? `${rel}/${ent.name}` : ent.name;
      if (ent.isDirectory()) {
        if (depth < 3) visit(child, depth + 1);
      } else if (ent.isFile() && TEMP_FILE_RE.test(ent.name)) {
        rmSync(join(outDir, ...child.split('/')), { force: true });
        scan.tempFilesRemoved.push(child);
      } else if (ent.isFile() && DATA_FILE_RE.test(ent.name)) {
        record(scan, child, statSync(join(outDir, ...child.split('/'))).size);
      }
    }
  };
  for (const top of [...PARTITIONED_TABLES, ...SMALL_TABLES, META_DIR]) visit(top, 1);
  return scan;
}

function record(scan: LakeScan, rel: string, bytes: number): void {
  const parts = rel.split('/');
  const table = PARTITIONED_TABLES.find((t) => t === parts[0]);
  if (table && parts.length === 4) {
    const project = PROJECT_DIR_RE.exec(parts[1]!);
    const date = DATE_DIR_RE.exec(parts[2]!);
    if (project && date) {
      scan.partitionFiles.push({ rel, table, projectId: unescapeHiveValue(project[1]!), date: date[1]! });
      scan.files.set(rel, bytes);
    }
    return;
  }
  if (!table && parts.length === 2) scan.files.set(rel, bytes);
}

function listDir(path: string) {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
    throw err;
  }
}
