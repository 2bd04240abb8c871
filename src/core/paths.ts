// Files shipped with the package (sql/) are found from the package root, which works the same
// from src/ under vitest and from dist/ after the build.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
