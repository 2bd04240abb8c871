// The question_text macro (sql/migrations/0039-question-text.sql) is the one home of the rule that
// groups a question's turns: the views, the gap topic step and the report call it, and a question's
// hash must be the same wherever it is computed. On a real warehouse: what it makes of hostile and
// odd text, and that no SQL or source file spells the rule out again.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let wh: Warehouse;
beforeAll(async () => {
  wh = await openWarehouse(':memory:');
});
afterAll(() => wh.close());

it('normalizes spacing, trailing punctuation and case, and nothing else', async () => {
  const cases: [string, string][] = [
    ['  How   do I\trotate\nAPI keys?! ', 'how do i rotate api keys'],
    ['Webhook retries... ; :', 'webhook retries'],
    ["'; DROP TABLE conversations; --", "'; drop table conversations; --"],
    ['¿Cómo configuro SSO?', '¿cómo configuro sso'],
    ['?!', ''],
    ['Größe ÄNDERN', 'größe ändern'],
  ];
  for (const [input, want] of cases) {
    const [row] = (await wh.conn.runAndReadAll('SELECT question_text($q) AS t', { q: input })).getRowObjectsJS();
    expect(row!.t, JSON.stringify(input)).toBe(want);
  }
});

it('is the only place the rule is written: no SQL or source file spells it out again', () => {
  const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
  const rule = /\[\\s\?!\.,;:\]\+\$/;
  const spelled = [...files(join(ROOT, 'sql')), ...files(join(ROOT, 'src'))]
    .filter((f) => !f.includes(join('sql', 'migrations')) && rule.test(readFileSync(f, 'utf8')));
  expect(spelled).toEqual([]);
});
