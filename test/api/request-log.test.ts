// The request log's local state: exclusive random temp files, named errors for things in the way
// of the lock or the folder, leftovers of killed writers removed. Real files in a temp dir.
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestLog } from '../../src/budget/request-log.js';
import { FatalError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/tmp.js';

let tmp: ReturnType<typeof tempDir>;
afterEach(() => tmp.cleanup());
const old = new Date(Date.now() - 3_600_000);

describe('request log files', () => {
  it('never follows a symlink planted at a temp name: temp files are random and created exclusively', async () => {
    tmp = tempDir();
    const dir = join(tmp.dir, 'budget');
    const log = new RequestLog(dir, 'org_x');
    const victim = join(tmp.dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    // The name the previous version used: <log>.<pid>.tmp
    symlinkSync(victim, `${log.file}.${process.pid}.tmp`);
    for (let i = 0; i < 3; i++) await log.update((s) => void (s.blockedUntil = i));
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(log.readUnlocked().blockedUntil).toBe(2);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([`org_x.json.${process.pid}.tmp`]);
  });

  it('a stray file at the lock path: one error naming it, at start and when it appears later', async () => {
    tmp = tempDir();
    const dir = join(tmp.dir, 'budget');
    mkdirSync(dir);
    const lock = join(dir, 'org_x.json.lock');
    writeFileSync(lock, '');
    expect(() => new RequestLog(dir, 'org_x')).toThrow(new FatalError(`${lock} is in the way of the request log's lock (docs-etl creates a directory there while it updates the log): remove it`));
    const log = new RequestLog(join(tmp.dir, 'other'), 'org_x');
    writeFileSync(log.lockPath, '');
    utimesSync(log.lockPath, old, old); // "stale": the lock library tries to remove it as a directory
    await expect(log.update(() => {})).rejects.toThrow(`${log.lockPath} is in the way`);
  });

  it('a budget folder that is a file is named', () => {
    tmp = tempDir();
    const file = join(tmp.dir, 'budget');
    writeFileSync(file, '');
    expect(() => new RequestLog(file, 'org_x')).toThrow(`cannot use the budget directory ${file}: EEXIST`);
  });

  it('removes temp files of killed writers (older than a minute), keeps fresh ones and other files', () => {
    tmp = tempDir();
    const dir = join(tmp.dir, 'budget');
    mkdirSync(dir);
    const stale = join(dir, 'org_x.json.0a1b2c3d4e5f6a7b.tmp');
    const fresh = join(dir, 'org_x.json.ffffffffffffffff.tmp');
    const other = join(dir, 'org_y.json.0a1b2c3d4e5f6a7b.tmp');
    for (const f of [stale, fresh, other]) writeFileSync(f, '{}');
    utimesSync(stale, old, old);
    utimesSync(other, old, old);
    new RequestLog(dir, 'org_x');
    expect([existsSync(stale), existsSync(fresh), existsSync(other)]).toEqual([false, true, true]);
  });
});
