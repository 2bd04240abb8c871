// The import graph of source folders, read from the files themselves: every import and re-export
// (types included) found by TypeScript's own pre-processor, relative specifiers resolved to .ts
// files. Bare specifiers (packages, node:) are left out.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** File (absolute) → the files it imports (absolute; may lie outside the folders read). */
export type ImportGraph = Map<string, string[]>;

export function readImportGraph(dirs: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const dir of dirs) {
    for (const name of readdirSync(dir, { recursive: true }) as string[]) {
      if (!name.endsWith('.ts')) continue;
      const file = resolve(dir, name);
      graph.set(file, specifiersOf(readFileSync(file, 'utf8')).filter((s) => s.startsWith('.')).map((s) => resolveSpecifier(file, s)));
    }
  }
  return graph;
}

/**
 * Every module specifier of a source, as TypeScript's pre-processor finds them (static and type
 * imports, re-exports, side-effect imports, `import()` of a literal), plus the files a module names
 * with `new URL(x, import.meta.url)` (child scripts, SQL, fixtures).
 */
export function specifiersOf(source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  const urls = [...source.matchAll(/\bnew URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g)].map((m) => m[1]!);
  return [...importedFiles.map((f) => f.fileName), ...urls];
}

function resolveSpecifier(from: string, spec: string): string {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts'), base]) if (existsSync(candidate)) return candidate;
  return base;
}

/** Imports from files under `from` of files under any of `forbidden`, as `a.ts -> b.ts` relative to `root`. */
export function forbiddenImports(graph: ImportGraph, root: string, from: string, forbidden: readonly string[]): string[] {
  const inside = (file: string, dir: string) => !relative(dir, file).startsWith('..');
  const out: string[] = [];
  for (const [file, imports] of graph) {
    if (!inside(file, from)) continue;
    for (const to of imports) if (forbidden.some((dir) => inside(to, dir))) out.push(`${relative(root, file)} -> ${relative(root, to)}`);
  }
  return out;
}

/** The first import cycle among the graph's own files (as a path relative to `root`), or null. */
export function findCycle(graph: ImportGraph, root: string): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | null => {
    state.set(file, 'open');
    stack.push(file);
    for (const to of graph.get(file) ?? []) {
      if (!graph.has(to)) continue;
      if (state.get(to) === 'open') return [...stack.slice(stack.indexOf(to)), to].map((f) => relative(root, f));
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of [...graph.keys()].sort()) {
    if (state.has(file)) continue;
    const found = visit(file);
    if (found) return found;
  }
  return null;
}
