// Tools stay out of the product (issue 21 item 4): nothing the package ships (src/, pipelines/)
// imports from test/ or from the bench, and the packed package (`npm pack`) holds no test or bench
// file. The bench lives in test/bench and is built by `npm run bench:build` into .bench-build/.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { specifiersOf } from '../helpers/import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHIPPED = ['src', 'pipelines'];

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.(ts|js|mjs|cjs)$/.test(d.name))
    .map((d) => relative(ROOT, join(d.parentPath, d.name)));
}

/** Why `spec`, written in `file` (relative to the repository), reaches outside the product; null when it does not. */
function boundaryProblem(file: string, spec: string): string | null {
  if (/(^|\/)bench(\/|$)/.test(spec)) return `${file}: imports the bench (${spec})`;
  if (!spec.startsWith('.')) return null; // a package (node:, npm): not a repository path
  const target = relative(ROOT, join(ROOT, dirname(file), spec));
  const top = target.split(sep)[0]!;
  if (top === 'test') return `${file}: imports test/ (${spec} → ${target})`;
  if (target.split(sep).includes('bench')) return `${file}: imports the bench (${spec} → ${target})`;
  if (!SHIPPED.includes(top)) return `${file}: imports ${target}, outside ${SHIPPED.join('/ and ')}/ (${spec})`;
  return null;
}

describe('tools out of the product', () => {
  it('no file under src/ or pipelines/ imports test/, the bench or anything outside the shipped folders', () => {
    const files = SHIPPED.flatMap(sourcesUnder);
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((f) => specifiersOf(readFileSync(join(ROOT, f), 'utf8')).map((s) => boundaryProblem(f, s)))
      .filter((p): p is string => p !== null);
    expect(problems).toEqual([]);
  });

  it('the check itself sees the imports it must refuse (and lets ordinary ones pass)', () => {
    const refused = [
      "import { maxInWindow } from '../../../test/helpers/window-stats.js';",
      "import type { X } from '../../../test/bench/x.js';",
      "export { y } from '../../../test/bench/y.js';",
      "const m = await import('../../../z.js');",
      "const CHILD = fileURLToPath(new URL('../../../test/bench/sync-child.js', import.meta.url));",
      "import '../../../docs/side-effect.js';",
    ];
    const allowed = [
      "import { systemClock } from '../../core/clock.js';",
      "import { PIPELINES } from '../../../pipelines/index.js';",
      "import { z } from 'zod';",
    ];
    const verdicts = (line: string) => specifiersOf(line).map((s) => boundaryProblem('src/sync/run/sync.ts', s));
    for (const line of refused) expect(verdicts(line), line).toEqual([expect.any(String)]);
    for (const line of allowed) expect(verdicts(line), line).toEqual([null]);
  });

  it('the bench and its SQL live under test/bench, not in src/ or sql/', () => {
    expect(existsSync(join(ROOT, 'src', 'bench'))).toBe(false);
    expect(existsSync(join(ROOT, 'sql', 'bench'))).toBe(false);
    expect(existsSync(join(ROOT, 'test', 'bench', 'main.ts'))).toBe(true);
    expect(existsSync(join(ROOT, 'test', 'bench', 'duckdb-ceiling.sql'))).toBe(true);
    const build = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[] };
    expect(build.include.filter((p) => p === 'test' || p.startsWith('test/'))).toEqual([]);
  });

  it('the packed package holds no test or bench file (npm pack --dry-run)', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toContain('bin/docs-etl.js');
    expect(files.some((f) => f.startsWith('sql/migrations/'))).toBe(true);
    expect(files.filter((f) => /(^|\/)(test|bench)(\/|$)|bench/.test(f))).toEqual([]);
  }, 60_000);
});
