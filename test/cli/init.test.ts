// `docs-etl init` writes a commented starter config that loads as it is, and never overwrites a
// file without --force. The config reader takes JSON with comments, and only comments are removed.
import { DEFAULT_REREADS } from '../../src/sync/plan/reread-schedule.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { stripJsonComments } from '../../src/config/jsonc.js';
import { loadConfigFile } from '../../src/config/config-file.js';
import { resolveSyncConfig } from '../../src/config/sync-config.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-init-');
afterAll(() => tmp.cleanup());

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const stdout = new Writable({ write(c, _e, cb) { out += String(c); cb(); } });
  const stderr = new Writable({ write(c, _e, cb) { err += String(c); cb(); } });
  const code = await main(['node', 'docs-etl', 'init', ...args], { stdout, stderr, env: { LOG_LEVEL: 'silent' }, signal: new AbortController().signal });
  return { code, out, err };
}

describe('docs-etl init', () => {
  it('writes a commented config that loads, with the defaults a sync uses', async () => {
    const file = join(tmp.dir, 'docs-etl.config.json');
    const r = await cli(['--out', file]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`docs-etl doctor --config ${file}`);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^\/\/ docs-etl configuration/);
    expect(() => JSON.parse(text)).toThrow(); // it really has comments
    const loaded = loadConfigFile(file);
    // No deprecated field: a sync from a starter config gives no warning.
    expect(loaded.lookback).toBeUndefined();
    // Its paths are relative to the file's folder (issue 19).
    expect(loaded).toMatchObject({ warehouse: join(tmp.dir, 'state', 'warehouse.duckdb'), rereads: DEFAULT_REREADS, maxWait: 900_000,
      rateLimit: { limit: 100, windowMs: 3_600_000 }, projects: [{ id: 'your-project-id', apiKeyEnv: 'DOCS_API_KEY', timezone: 'UTC' }] });
    const cfg = resolveSyncConfig({ config: file }, { DOCS_API_KEY: 'mint_x' });
    expect(cfg.projects[0]).toMatchObject({ projectId: 'your-project-id', timezone: 'UTC', backfillFrom: null });
    expect(cfg.warnings).toEqual([]);
  });

  it('never overwrites without --force (exit 2, file unchanged); --force does; --config names the file too', async () => {
    const file = join(tmp.dir, 'mine.json');
    writeFileSync(file, '{"projects": []}');
    const r = await cli(['--config', file]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`docs-etl: ${file} exists: pass --force to overwrite it, or --out another file\n`);
    expect(readFileSync(file, 'utf8')).toBe('{"projects": []}');
    expect((await cli(['--config', file, '--force'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^\/\/ docs-etl configuration/);
    expect((await cli(['--out', file, '--config', join(tmp.dir, 'other.json')])).code).toBe(2);
  });
});

describe('JSON with comments', () => {
  it('removes line and block comments, never text inside strings, and keeps positions', () => {
    const text = '{\n  // a comment\n  "url": "http://x//y", /* block\n spans */ "q": "say \\"/*hi*/\\"" // end\n}';
    const stripped = stripJsonComments(text);
    expect(stripped).toHaveLength(text.length);
    expect(JSON.parse(stripped)).toEqual({ url: 'http://x//y', q: 'say "/*hi*/"' });
    expect(stripped.split('\n')).toHaveLength(text.split('\n').length);
  });

  it('a syntax error is one line naming what is wrong, with its line when JSON.parse gives a position', () => {
    const file = join(tmp.dir, 'broken.json');
    writeFileSync(file, '// header\n{\n  "projects": [ oops ]\n}\n');
    expect(() => loadConfigFile(file)).toThrow(/is not valid JSON: Unexpected token 'o'/);
    expect(() => loadConfigFile(file)).not.toThrow(/\n/);
    writeFileSync(file, '// header\n{\n  "warehouse": "w" "projects": []\n}\n');
    expect(() => loadConfigFile(file)).toThrow(/is not valid JSON: .* \(line 3, column \d+\)$/);
  });
});
