// Issue 21: src/sync/plan owns the decisions of the sync path and depends on none of its stages; the
// runner depends on the plan, never the other way, so no import circle remains in src/sync/run + src/sync/plan.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { findCycle, forbiddenImports, readImportGraph } from '../helpers/import-graph.js';

const ROOT = resolve(import.meta.dirname, '../..');
const src = (dir: string) => join(ROOT, 'src', 'sync', dir);
/** The stages the plan must not reach into: it decides, they read, land and merge. */
const FORBIDDEN_FOR_PLAN = ['run', 'api', 'extract', 'land', 'load'].map(src);

describe('the import graph of src/sync/plan and src/sync/run', () => {
  const graph = readImportGraph([src('plan'), src('run')]);

  it('is read from every file of both folders', () => {
    expect([...graph.keys()].some((f) => f.endsWith('src/sync/plan/admission.ts'))).toBe(true);
    expect([...graph.keys()].some((f) => f.endsWith('src/sync/run/run-org.ts'))).toBe(true);
    // The runner's use of the plan is seen (the check below would otherwise prove nothing).
    expect(graph.get(join(src('run'), 'run-org.ts'))).toContain(join(src('plan'), 'admission.ts'));
  });

  it('src/sync/plan imports nothing from run, api, extract, land or load (types included)', () => {
    expect(forbiddenImports(graph, ROOT, src('plan'), FORBIDDEN_FOR_PLAN)).toEqual([]);
  });

  it('has no import circle', () => {
    expect(findCycle(graph, ROOT)).toBeNull();
  });
});

describe('the checks themselves', () => {
  const tmp = tempDir('docs-etl-imports-');
  afterAll(() => tmp.cleanup());
  const write = (path: string, text: string) => {
    mkdirSync(join(tmp.dir, path, '..'), { recursive: true });
    writeFileSync(join(tmp.dir, path), text);
  };
  write('plan/a.ts', "import type { R } from '../run/r.js';\nexport { b } from './b.js';\nimport 'node:fs';\n");
  write('plan/b.ts', "import { a } from './a.js';\nexport const b = 1;\n");
  write('run/r.ts', 'export type R = 1;\n');
  const graph = readImportGraph([join(tmp.dir, 'plan'), join(tmp.dir, 'run')]);

  it('name a type-only import from the plan into the runner', () => {
    expect(forbiddenImports(graph, tmp.dir, join(tmp.dir, 'plan'), [join(tmp.dir, 'run')])).toEqual(['plan/a.ts -> run/r.ts']);
  });

  it('find a circle through a re-export', () => {
    expect(findCycle(graph, tmp.dir)).toEqual(['plan/a.ts', 'plan/b.ts', 'plan/a.ts']);
  });
});
