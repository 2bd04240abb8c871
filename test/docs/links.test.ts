// Every path the documentation names exists: Markdown links (and their #anchors) in README.md and
// docs/**/*.md, inline-code paths that start at a repository folder (`sql/views/`, `src/...`) or at
// the page's own folder, and any `*.md` file they mention. Sources, SQL and the Dockerfile may not
// name a repository path that is gone either (they once pointed at shared/api/contract.md).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Top-level entries whose paths the docs may name; state/ holds runtime files only. */
const RUNTIME = ['state', 'node_modules', 'dist', '.bench-build', '.git'];
const ROOT_ENTRIES = new Set(readdirSync(ROOT).filter((e) => !RUNTIME.includes(e)));

function filesUnder(dir: string, keep: (f: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(ROOT, join(d.parentPath, d.name)))
    .filter(keep);
}

const DOCS = ['README.md', ...filesUnder('docs', (f) => f.endsWith('.md'))];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]!.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')));
}

/** The problems of one page (`file`, relative to the repository): each a path or link that does not resolve. */
function problemsIn(file: string, markdown: string): string[] {
  const dir = dirname(file);
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  const problems: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!)) continue; // http:, https:, mailto:
    const [path, anchor] = target!.split('#') as [string, string | undefined];
    const resolved = path ? join(dir, path) : file;
    if (!existsSync(join(ROOT, resolved))) problems.push(`${file}: link ${target} → ${resolved} does not exist`);
    else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) problems.push(`${file}: link ${target}: no heading #${anchor} in ${resolved}`);
  }
  const ownEntries = new Set(readdirSync(join(ROOT, dir)).filter((e) => !RUNTIME.includes(e)));
  for (const [, code] of text.matchAll(/`([^`\s]+)`/g)) {
    const token = code!.replace(/[.,:;]+$/, '');
    if (/[*<>{}…$]|^\/|^~|:\/\//.test(token)) continue; // globs, placeholders, absolute paths, URLs
    const first = token.split('/')[0]!;
    const mentionsMd = /\.md$/.test(token);
    if (token.includes('/') && ROOT_ENTRIES.has(first)) {
      if (!existsSync(join(ROOT, token))) problems.push(`${file}: \`${token}\` does not exist`);
    } else if ((token.includes('/') && ownEntries.has(first)) || mentionsMd) {
      if (!existsSync(join(ROOT, dir, token)) && !existsSync(join(ROOT, token))) problems.push(`${file}: \`${token}\` does not exist`);
    }
  }
  return problems;
}

const problemsOf = (file: string) => problemsIn(file, readFileSync(join(ROOT, file), 'utf8'));

describe('documentation paths', () => {
  it('the README is about 200 lines and keeps the two commands', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(240);
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
  });

  it('every link and path named in README.md and docs/ exists', () => {
    expect(DOCS.length).toBeGreaterThan(8);
    expect(DOCS.flatMap(problemsOf)).toEqual([]);
  });

  it('the checker finds a missing file link, a missing anchor, a missing repository path and a missing .md', () => {
    const page = [
      'See [the lake](docs/lake.md#layout), [views](#tables-and-views), `sql/views/` and [api](docs/api/README.md).',
      'Broken: [gone](docs/lake-and-container.md), [anchor](README.md#no-such-heading), `src/nope.ts`, `shared/api/contract.md`.',
      '```sh', 'cat src/in-a-code-block-is-not-checked.ts', '```', 'Runtime files are not checked: `state/warehouse.duckdb`.',
    ].join('\n');
    expect(problemsIn('README.md', page)).toEqual([
      'README.md: link docs/lake-and-container.md → docs/lake-and-container.md does not exist',
      'README.md: link README.md#no-such-heading: no heading #no-such-heading in README.md',
      'README.md: `src/nope.ts` does not exist',
      'README.md: `shared/api/contract.md` does not exist',
    ]);
  });

  it('sources, SQL, tests and the Dockerfile name only repository paths that exist', () => {
    const self = relative(ROOT, fileURLToPath(import.meta.url));
    const files = ['Dockerfile', ...['src', 'sql', 'test', 'pipelines', 'bin'].flatMap((d) => filesUnder(d, (f) => /\.(ts|js|sql)$/.test(f) && f !== self))];
    const problems: string[] = [];
    for (const f of files) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      for (const [path] of text.matchAll(/(?<![\w./-])(?:docs|shared)\/[\w./-]*\w/g)) {
        if (!existsSync(join(ROOT, path))) problems.push(`${f}: ${path}`);
      }
    }
    expect(problems).toEqual([]);
    expect(statSync(join(ROOT, 'docs', 'api', 'analytics.openapi.json')).size).toBe(47_166);
    expect(statSync(join(ROOT, 'docs', 'api', 'static-export.openapi.json')).size).toBe(10_569);
  });
});
