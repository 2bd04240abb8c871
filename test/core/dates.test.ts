// User dates (`--from`, a config file's `from`): a date or time without an offset is UTC on every
// machine, whatever its zone; impossible dates and times are refused.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkNotFuture, parseDateValue } from '../../src/core/dates.js';
import { UsageError } from '../../src/core/errors.js';

const iso = (v: string) => parseDateValue(v)?.toISOString() ?? null;

describe('user dates', () => {
  it.each([
    ['2026-01-01', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01T10:00', '2026-01-01T10:00:00.000Z'],
    ['2026-01-01T10:00:30', '2026-01-01T10:00:30.000Z'],
    ['2026-01-01 10:00', '2026-01-01T10:00:00.000Z'],
    ['2026-01-01T10:00:00.250Z', '2026-01-01T10:00:00.250Z'],
    ['2026-01-01T10:00+09:00', '2026-01-01T01:00:00.000Z'],
    ['2026-01-01T10:00:00-0530', '2026-01-01T15:30:00.000Z'],
    ['2026-01-01T10:00+09', '2026-01-01T01:00:00.000Z'],
  ])('%s is %s', (text, want) => expect(iso(text)).toBe(want));

  it.each(['2026-02-30', '2026-13-01', '2026-01-01T25:00', '2026-01-01T10:60', '2026-01-01T10', 'yesterday', '', '2026-01-01T10:00+25:00', '20260101'])(
    'refuses %j', (text) => expect(iso(text)).toBeNull());

  it('without an offset means UTC even when the machine runs in Asia/Tokyo (a child process with TZ set)', () => {
    const dates = fileURLToPath(new URL('../../dist/src/core/dates.js', import.meta.url));
    const script = `const m = await import(${JSON.stringify(dates)});
      console.log(JSON.stringify([new Date(2026, 0, 1).getTimezoneOffset(), m.parseDateValue('2026-01-01T10:00').toISOString(), m.parseDateValue('2026-01-01').toISOString()]));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TZ: 'Asia/Tokyo' }, encoding: 'utf8' });
    // -540: the child really ran in Tokyo, where `new Date('2026-01-01T10:00')` would be 01:00Z.
    expect(JSON.parse(out)).toEqual([-540, '2026-01-01T10:00:00.000Z', '2026-01-01T00:00:00.000Z']);
  });

  it('a date in the future is a usage error naming the flag', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(() => checkNotFuture(new Date('2026-06-02T00:00:00Z'), '--from', now)).toThrow(UsageError);
    expect(() => checkNotFuture(new Date('2026-06-02T00:00:00Z'), '--from', now)).toThrow(/--from 2026-06-02T00:00:00.000Z is in the future/);
    expect(() => checkNotFuture(now, '--from', now)).not.toThrow();
  });
});
