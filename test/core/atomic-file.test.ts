// core/atomic-file: the one atomic write. Real files in a temp dir; the crash is a real SIGKILL of a
// real process between the write and the rename (the built module, as the CLI runs it).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { commitFile, writeFileAtomic, writeFileAtomicSync } from '../../src/core/atomic-file.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-atomic-');
afterAll(() => tmp.cleanup());
const BUILT = fileURLToPath(new URL('../../dist/src/core/atomic-file.js', import.meta.url));

function dir(name: string): string {
  const d = join(tmp.dir, name);
  mkdirSync(d, { recursive: true });
  return d;
}

describe('writeFileAtomicSync / writeFileAtomic', () => {
  it('replaces the file whole, with the mode asked for, and leaves no temporary file', async () => {
    const d = dir('replace');
    const file = join(d, 'state.json');
    writeFileSync(file, 'old');
    writeFileAtomicSync(file, '{"v":2}', { mode: 0o600 });
    expect(readFileSync(file, 'utf8')).toBe('{"v":2}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await writeFileAtomic(file, Readable.from([Buffer.from('a'), Buffer.from('b')]));
    expect(readFileSync(file, 'utf8')).toBe('ab');
    expect(readdirSync(d)).toEqual(['state.json']);
  });

  it('never follows a file or symlink planted at its temporary name (created exclusively)', () => {
    const d = dir('planted');
    const victim = join(d, 'victim');
    writeFileSync(victim, 'precious');
    const temp = join(d, '.state.json.0123456789ab.tmp');
    symlinkSync(victim, temp);
    expect(() => writeFileAtomicSync(join(d, 'state.json'), 'new', { temp })).toThrow(/EEXIST/);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(existsSync(join(d, 'state.json'))).toBe(false);
  });

  it('a process killed between the write and the rename leaves the old file whole (and its temporary file to sweep)', async () => {
    const d = dir('crash');
    const file = join(d, 'page.json');
    writeFileSync(file, 'the old version, whole');
    const script = join(d, '..', 'crash-writer.mjs');
    // Writes part of the new version through a stream that never ends: the rename never comes.
    writeFileSync(script, `import { Readable } from 'node:stream';
import { writeFileAtomic } from ${JSON.stringify(BUILT)};
const body = new Readable({ read() {} });
body.push('the new version, only half of it');
writeFileAtomic(process.argv[2], body);
setInterval(() => {}, 1000);\n`);
    const child = spawn(process.execPath, [script, file], { stdio: 'ignore' });
    const exited = new Promise((r) => child.on('exit', r));
    const temps = () => readdirSync(d).filter((n) => /^\.page\.json\.[0-9a-f]{12}\.tmp$/.test(n));
    for (let i = 0; i < 400 && !(temps().length === 1 && statSync(join(d, temps()[0]!)).size > 0); i++) await new Promise((r) => setTimeout(r, 25));
    expect(temps()).toHaveLength(1);
    child.kill('SIGKILL');
    await exited;
    expect(readFileSync(file, 'utf8')).toBe('the old version, whole');
    expect(readFileSync(join(d, temps()[0]!), 'utf8')).toBe('the new version, only half of it');
  });
});

describe('commitFile', () => {
  it('renames a finished temporary file over the target; on a failed rename the target is untouched and the temporary file gone', () => {
    const d = dir('commit');
    const final = join(d, 'snapshot.duckdb');
    writeFileSync(final, 'v1');
    const t1 = join(d, '.snapshot.duckdb.aaaaaaaaaaaa.tmp');
    writeFileSync(t1, 'v2');
    commitFile(t1, final);
    expect(readFileSync(final, 'utf8')).toBe('v2');
    expect(existsSync(t1)).toBe(false);
    // A directory in the way of the target: the rename fails.
    const blocked = join(d, 'blocked');
    mkdirSync(join(blocked, 'inside'), { recursive: true });
    const t2 = join(d, '.blocked.bbbbbbbbbbbb.tmp');
    writeFileSync(t2, 'v3');
    expect(() => commitFile(t2, blocked)).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(existsSync(t2)).toBe(false);
    expect(readdirSync(blocked)).toEqual(['inside']);
  });
});
