// `docs-etl export-parquet` in-process through main(): flags, errors and exit codes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { tempDir } from '../helpers/tmp.js';
import { publishForReaders } from '../helpers/publish.js';
import { fillWarehouse } from './lake-fixture.js';

function sink(): Writable & { text: () => string } {
  let out = '';
  const w = new Writable({ write(chunk, _enc, cb) { out += String(chunk); cb(); } });
  return Object.assign(w, { text: () => out });
}

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = sink();
  const stderr = sink();
  const controller = new AbortController();
  const code = await main(['node', 'docs-etl', 'export-parquet', ...args], { stdout, stderr, env: { LOG_LEVEL: 'silent', ...env }, signal: controller.signal });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe('docs-etl export-parquet', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => { tmp = tempDir('docs-etl-lake-cli-'); });
  afterEach(() => tmp.cleanup());

  it('exits 2 on bad flags, naming the problem', async () => {
    let r = await cli(['--out', join(tmp.dir, 'lake'), '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--bogus'/);
    r = await cli(['--warehouse', join(tmp.dir, 'w.duckdb')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/required option '--out <dir\|s3:\/\/bucket\/prefix>' not specified/);
    r = await cli(['--out', '  ']);
    expect(r.code).toBe(2);
  });

  it('refuses a lake URL it cannot write (no local folder named "gs:" or "s3:"), exit 2', async () => {
    const w = join(tmp.dir, 'w.duckdb');
    (await openWarehouse(w)).close();
    for (const out of ['gs://bucket/lake', 'https://example.com/lake', 's3://', 's3://Bad_Bucket/x']) {
      const r = await cli(['--out', out, '--warehouse', w], { INIT_CWD: tmp.dir });
      expect(r.code, out).toBe(2);
      expect(r.stderr, out).toMatch(/^docs-etl: --out: (unsupported lake URL|invalid bucket name)/);
      expect(r.stderr.trim().split('\n'), out).toHaveLength(1);
    }
    expect(existsSync('gs:')).toBe(false);
    expect(existsSync('s3:')).toBe(false);
  });

  it('exits 1 with one clear line when the warehouse does not exist (and creates no lake)', async () => {
    const missing = join(tmp.dir, 'nope', 'w.duckdb');
    const r = await cli(['--out', join(tmp.dir, 'lake'), '--warehouse', missing]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`docs-etl: error: warehouse ${missing} does not exist yet: run \`docs-etl sync\` first\n`);
    expect(existsSync(join(tmp.dir, 'lake'))).toBe(false);
    expect(existsSync(missing)).toBe(false);
  });

  it('exports, prints one summary line, and takes the warehouse from DOCS_ETL_WAREHOUSE', async () => {
    const w = join(tmp.dir, 'w.duckdb');
    const wh = await openWarehouse(w);
    await fillWarehouse(wh.conn, { days: 2, turnsPerDay: 5 });
    wh.close();
    await publishForReaders(w);
    const lake = join(tmp.dir, 'lake');
    let r = await cli(['--out', lake, '--project', 'acme', '--project', 'beta'], { DOCS_ETL_WAREHOUSE: w });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^lake ${lake}: 15 partition\\(s\\) written, 0 unchanged, 0 removed; conversations, sources, sync_runs, quarantine, projects, coverage, static_export_jobs, site_pages, gap_topic_runs rewritten; \\d+ rows, [\\d.]+ kB in \\d+(ms|\\.\\ds)\\n$`));
    r = await cli(['--out', lake, '--warehouse', w, '--full']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: 19 partition\(s\) written, 0 unchanged, 0 removed \(--full\)/);
  });
});
