// Small pieces of the client: entity decoding, titles, page keys, values file, retention, inputs.
import { mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeEntities } from '../../src/static-export/html-entities.js';
import { titleOf } from '../../src/static-export/archive.js';
import { pageKey, pagePathOfEntry } from '../../src/static-export/page-path.js';
import { writeValuesFile } from '../../src/static-export/values-file.js';
import { applyRetention } from '../../src/static-export/retention.js';
import { parsePaths, checkDomain } from '../../src/static-export/inputs.js';
import { escapeHtml } from '../../src/tools/sandbox/static-export/render.js';
import { tempDir } from '../helpers/tmp.js';

describe('decodeEntities / titleOf', () => {
  it('decodes named, decimal and hex references; leaves unknown names', () => {
    expect(decodeEntities('A &amp; B &lt;C&gt; &quot;q&quot; it&#39;s &apos;x&apos;')).toBe('A & B <C> "q" it\'s \'x\'');
    expect(decodeEntities('Caf&eacute; &#233; &#xE9; &#XE9; &rarr; &mdash; &#127757;')).toBe('Café é é é → — 🌍');
    expect(decodeEntities('&amp;lt; &unknown; & alone &#0; &#xD800;')).toBe('&lt; &unknown; & alone \ufffd \ufffd');
  });

  it('round-trips every escaping style of the sandbox', () => {
    const title = 'What\'s new: "A" & <B> — 日本語 🌍 Café';
    for (const style of ['named', 'decimal', 'hex', 'raw'] as const) expect(decodeEntities(escapeHtml(title, style))).toBe(title);
  });

  it('reads the first <title>, collapsing whitespace', () => {
    expect(titleOf('<html><head><title data-x="1">\n  Getting\n started &amp; more </title></head><title>no</title>')).toBe('Getting started & more');
    expect(titleOf('<html><body>none</body></html>')).toBeNull();
    expect(titleOf('<title>  </title>')).toBeNull();
  });
});

describe('page paths', () => {
  it.each([
    ['https://docs.example.com/guides/start', 'guides/start'],
    ['https://docs.example.com/guides/start/', 'guides/start'],
    ['https://docs.example.com/guides/start.html', 'guides/start'],
    ['https://docs.example.com/', 'index'],
    ['https://docs.example.com', 'index'],
    ['https://docs.example.com/index.html', 'index'],
    ['https://docs.example.com/a/b?x=1#frag', 'a/b'],
    ['/guides/start', 'guides/start'],
    ['guides/start', 'guides/start'],
    ['/', 'index'],
  ])('pageKey(%s) = %s', (url, key) => expect(pageKey(url)).toBe(key));

  it('archive entries: only .html files are pages', () => {
    expect(pagePathOfEntry('index.html')).toBe('index');
    expect(pagePathOfEntry('./guides/getting-started.html')).toBe('guides/getting-started');
    expect(pagePathOfEntry('_next/static/css/app.css')).toBeNull();
    expect(pagePathOfEntry('sitemap.xml')).toBeNull();
    expect(pagePathOfEntry('../evil.html')).toBeNull();
  });
});

describe('inputs', () => {
  it('paths: comma-separated page paths, deduplicated; a leading slash or extension is refused', () => {
    expect(parsePaths('index, guides/start,index')).toEqual(['index', 'guides/start']);
    expect(() => parsePaths('/index')).toThrow(/not a page path/);
    expect(() => parsePaths('guides/start.html')).toThrow(/not a page path/);
    expect(() => parsePaths(' , ')).toThrow(/empty/);
  });
  it('domain: a hostname only', () => {
    expect(checkDomain('Docs.Example.com')).toBe('docs.example.com');
    for (const bad of ['https://docs.example.com', 'docs.example.com/', 'example.com/docs', 'localhost']) expect(() => checkDomain(bad)).toThrow(/not a hostname/);
  });
});

describe('files', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir('se-units-')));
  afterEach(() => cleanup());

  const input = { bundleUrl: 'https://s3.example/se_1/bundle.tar.gz?X-Amz-Signature=abc', expiresAt: '2026-11-01T10:00:00.000Z', jobId: 'se_1', domain: 'docs.example.com' };

  it('values file: created with the link, its expiry comment and the version', async () => {
    const file = join(dir, 'values.yaml');
    await writeValuesFile(file, { ...input, version: '2026-11-01' });
    const text = readFileSync(file, 'utf8');
    expect(parseYaml(text)).toEqual({ staticExport: { enabled: true, bundleUrl: input.bundleUrl, version: '2026-11-01' } });
    expect(text).toContain('# bundleUrl expires at 2026-11-01T10:00:00.000Z: regenerate before then (docs-etl static-export --job se_1 --values-file');
    expect(text).toContain('version: "2026-11-01"');
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(readdirSync(dir)).toEqual(['values.yaml']);
  });

  it('values file: an existing file keeps its other keys and comments; a stale version is removed', async () => {
    const file = join(dir, 'values.yaml');
    writeFileSync(file, '# mine\nreplicaCount: 2\nstaticExport:\n  enabled: false\n  bundleUrl: old\n  version: "1"\n  extra: keep\nimage:\n  tag: v1\n');
    await writeValuesFile(file, { ...input, version: null });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# mine\n')).toBe(true);
    expect(parseYaml(text)).toEqual({ replicaCount: 2, staticExport: { enabled: true, bundleUrl: input.bundleUrl, extra: 'keep' }, image: { tag: 'v1' } });
    // Written twice: still one expiry comment.
    await writeValuesFile(file, { ...input, version: null });
    expect(readFileSync(file, 'utf8').match(/bundleUrl expires at/g)).toHaveLength(1);
  });

  it('values file: a file that is not a YAML mapping is not overwritten', async () => {
    const file = join(dir, 'values.yaml');
    writeFileSync(file, '- a\n- b\n');
    await expect(writeValuesFile(file, { ...input, version: null })).rejects.toThrow(/not a YAML mapping/);
    expect(readFileSync(file, 'utf8')).toBe('- a\n- b\n');
  });

  it('retention: newest by bundle time, the current export always kept, unrelated dirs untouched', async () => {
    const mk = (id: string, ageS: number | null) => {
      mkdirSync(join(dir, id), { recursive: true });
      if (ageS === null) return;
      const f = join(dir, id, 'bundle.tar.gz');
      writeFileSync(f, 'x');
      const t = new Date(Date.now() - ageS * 1000);
      utimesSync(f, t, t);
    };
    mk('se_old', 300);
    mk('se_current', 400); // resumed old job: still kept, counts as one
    mk('se_new', 100);
    mk('se_mid', 200);
    mk('se_in_progress', null);
    const r = await applyRetention(dir, 2, 'se_current');
    expect(readdirSync(dir).sort()).toEqual(['se_current', 'se_in_progress', 'se_new']);
    expect(r.removed.map((p) => p.split('/').pop()).sort()).toEqual(['se_mid', 'se_old']);
  });
});
