// Files shipped with the package (sql/) are found from the package root, which works the same
// from src/ under vitest and from dist/ after the build.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from './errors.js';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'docs-etl') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('docs-etl package root not found');
    dir = up;
  }
}

export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
export const SQL_DIR = join(PACKAGE_ROOT, 'sql');
export const DEFAULT_WAREHOUSE = 'state/warehouse.duckdb';

/**
 * The warehouse a command uses: `--warehouse`, else DOCS_ETL_WAREHOUSE, else the config file's, else
 * the default. An empty flag is a mistake (exit 2), not "the default"; an empty variable is unset.
 */
export function warehousePath(flag: string | undefined, env: NodeJS.ProcessEnv, fromConfig?: string): string {
  if (flag !== undefined && !flag.trim()) throw new UsageError('--warehouse is empty: give a file path');
  return flag ?? (env.DOCS_ETL_WAREHOUSE || undefined) ?? fromConfig ?? DEFAULT_WAREHOUSE;
}
