// Rule 4: a server that repeats a cursor (or cycles between two) is not followed until the budget
// is gone: the window ends with one clear error and no further request; the pages before it are
// loaded; the other projects of the run go on. Real CLI, hostile server on 127.0.0.1.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { query } from '../reliability/reliability-helpers.js';
import { tempDir } from '../helpers/tmp.js';
import { expectBoundedMemory, expectKeyAbsent, expectOneCleanLine, hostileServer, json, oneWindow, page, runMeasured, turns, type Hostile } from './hostile.js';

const KEY = 'mint_hostile_loop_key_4242';
const tmp = tempDir('docs-etl-hostile-4-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

describe('rule 4: paging loops are detected', () => {
  it.each([
    ['repeats the same cursor', ['A', 'A']],
    ['cycles between two cursors', ['A', 'B', 'A']],
  ])('sync: a server that %s: the window ends at once with one line, exit 1, the pages read are loaded', async (_name, cursors) => {
    // Page n carries turns prefixed p<n>_ and the nth cursor of the script, forever after the last.
    const s = await hostileServer((_req, res, n) => json(res, 200, page(turns(10, `p${n}_`), cursors[Math.min(n, cursors.length - 1)]!)));
    servers.push(s);
    const dir = join(tmp.dir, cursors.join(''));
    const warehouse = join(dir, 'w.duckdb');
    const r = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()],
      { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' }, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, /^docs-etl: error: demo: the API returned the same cursor twice in window \S+ → \S+ \(a paging loop\): the window was ended, no further requests$/);
    // No request after the one that repeated a cursor.
    expect(s.seen).toHaveLength(cursors.length);
    // The pages before the one that repeated a cursor are loaded; that one is not (its data is suspect).
    const loaded = await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM conversations');
    expect(loaded[0]!.n).toBe(10 * (cursors.length - 1));
    expect((await query(warehouse, 'SELECT status FROM sync_runs'))[0]!.status).toBe('failed');
    expectBoundedMemory(r);
    expectKeyAbsent(KEY, r, [dir]);
  });
});
