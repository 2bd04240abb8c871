// `docs-etl lake ddl`: per engine, one statement per table naming its current metadata file; bad
// usage is one line and exit 2; a lake with no Iceberg metadata yet is exit 1.
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { systemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import { ENGINES } from '../../src/outputs/lake/iceberg/lake-ddl.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { tempDir } from '../helpers/tmp.js';
import { fillWarehouse } from './lake-fixture.js';

let tmp: ReturnType<typeof tempDir>;
let lake: string;
beforeAll(async () => {
  tmp = tempDir('docs-etl-ddl-');
  lake = join(tmp.dir, 'lake');
  const wh = await openWarehouse(join(tmp.dir, 'w.duckdb'));
  try {
    await fillWarehouse(wh.conn, { days: 2, turnsPerDay: 3 });
    await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: LAKE_TABLES }, { outDir: lake });
    await wh.conn.run(`UPDATE conversations SET query = 'again' WHERE id = 'conv-0-0'`);
    await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: LAKE_TABLES }, { outDir: lake });
  } finally {
    wh.close();
  }
});
afterAll(() => tmp.cleanup());

function sink() {
  let out = '';
  return Object.assign(new Writable({ write(c, _e, cb) { out += String(c); cb(); } }), { text: () => out });
}
async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(['node', 'docs-etl', ...args], { stdout, stderr, signal: new AbortController().signal, env: { LOG_LEVEL: 'silent', ...env } });
  return { code, out: stdout.text(), err: stderr.text() };
}
const current = (t: string) => `v${readFileSync(join(lake, t, 'metadata', 'version-hint.text'), 'utf8').trim()}.metadata.json`;

describe('docs-etl lake ddl', () => {
  it.each(ENGINES)('%s: a statement per table with its current metadata file', async (engine) => {
    const r = await cli(['lake', 'ddl', '--engine', engine, '--lake', lake]);
    expect(r.code, r.err).toBe(0);
    expect(current('conversations')).toBe('v2.metadata.json');
    for (const t of LAKE_TABLES) {
      const line = r.out.split('\n').find((l) => l.includes(`${t.name}`) && !l.startsWith('--') && (engine === 'spark' || l.includes(current(t.name))));
      expect(line, `${engine} ${t.name}:\n${r.out}`).toBeDefined();
    }
    if (engine === 'duckdb') {
      expect(r.out).toContain(`CREATE OR REPLACE VIEW "docs"."conversations" AS SELECT * FROM iceberg_scan('${pathToFileURL(join(lake, 'conversations', 'metadata', 'v2.metadata.json')).href}');`);
    }
  });

  it('--table limits the output; bad usage is one line and exit 2; no metadata yet is exit 1', async () => {
    const one = await cli(['lake', 'ddl', '--engine', 'trino', '--lake', lake, '--table', 'sources']);
    expect(one.code).toBe(0);
    expect(one.out.split('\n').filter((l) => l.startsWith('CALL'))).toHaveLength(1);
    for (const args of [['--engine', 'oracle', '--lake', lake], ['--engine', 'duckdb'], ['--engine', 'duckdb', '--lake', lake, '--table', 'nope'], ['--engine', 'duckdb', '--lake', 'gs://x/y']]) {
      const r = await cli(['lake', 'ddl', ...args]);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
    const empty = await cli(['lake', 'ddl', '--engine', 'duckdb', '--lake', join(tmp.dir, 'empty')]);
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/no Iceberg metadata/);
  });
});
