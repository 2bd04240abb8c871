// The bundle check on hand-made archives: a valid site passes; every entry a deployment must not
// extract, and every archive over a cap, is refused (not retried) before its bodies are inflated.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DamagedArchiveError, UnsafeArchiveError, readArchive } from '../../src/static-export/archive.js';
import { tempDir } from '../helpers/tmp.js';
import { SITE, tarBytes, tarGz, type RawEntry } from '../hostile/tar.js';

const tmp = tempDir('se-archive-');
afterAll(() => tmp.cleanup());
let n = 0;
function file(bytes: Buffer): string {
  const path = join(tmp.dir, `a${n++}.tar.gz`);
  writeFileSync(path, bytes);
  return path;
}

describe('readArchive', () => {
  it('reads a valid site with a safe symlink and hard link', async () => {
    const c = await readArchive(file(tarGz([...SITE,
      { path: 'guides/latest', type: '2', linkpath: '../guides' },
      { path: 'home.html', type: '1', linkpath: 'index.html' },
    ])));
    expect(c.pages.map((p) => [p.path, p.title])).toEqual([['guides/start', 'Start'], ['index', 'Home']]);
    expect(c.entries).toBe(5);
  });

  it.each<[string, RawEntry, RegExp]>([
    ['a ".." path', { path: '../../etc/cron.d/x.html', content: 'x' }, /entry "..\/..\/etc\/cron.d\/x.html" has a ".." path segment/],
    ['a ".." inside the path', { path: 'a/../../b.html', content: 'x' }, /has a "\.\." path segment/],
    ['a backslash ".." path', { path: 'a\\..\\..\\b.html', content: 'x' }, /has a "\.\." path segment/],
    ['an absolute path', { path: '/etc/passwd', content: 'x' }, /entry "\/etc\/passwd" has an absolute path/],
    ['a drive path', { path: 'C:/Windows/x.html', content: 'x' }, /has an absolute path/],
    ['a symlink to /etc', { path: 'etc', type: '2', linkpath: '/etc' }, /entry "etc" links to "\/etc", outside the archive/],
    ['a symlink leaving the root', { path: 'guides/up', type: '2', linkpath: '../../..' }, /links to "..\/..\/..", outside the archive/],
    ['a hard link leaving the root', { path: 'passwd', type: '1', linkpath: '../../etc/passwd' }, /links to .*outside the archive/],
    ['a character device', { path: 'null', type: '3' }, /entry "null" is a CharacterDevice/],
    ['a block device', { path: 'sda', type: '4' }, /is a BlockDevice/],
    ['a fifo', { path: 'pipe', type: '6' }, /entry "pipe" is a FIFO/],
    ['an unknown type', { path: 'odd.html', type: 'Z', content: 'x' }, /has an unsupported type|is a /],
    ['a control character', { path: 'x\u001b[2J.html', content: 'x' }, /has control characters in its path/],
  ])('refuses %s', async (_label, entry, message) => {
    const err = await readArchive(file(tarGz([...SITE, entry]))).catch((e: Error) => e);
    expect(err).toBeInstanceOf(UnsafeArchiveError);
    expect((err as Error).message).toMatch(/^the bundle is refused: /);
    expect((err as Error).message).toMatch(message);
    // eslint-disable-next-line no-control-regex -- no control character may remain
    expect((err as Error).message).not.toMatch(/[\u0000-\u001f]/);
  });

  it('refuses a 4 GiB entry from its header, before inflating anything (a bomb, a lying header)', async () => {
    const bomb = file(tarGz([...SITE, { path: 'big.html', size: 4 * 1024 ** 3 }], { end: false }));
    const t0 = Date.now();
    const err = await readArchive(bomb).catch((e: Error) => e);
    expect(err).toBeInstanceOf(UnsafeArchiveError);
    expect((err as Error).message).toBe('the bundle is refused: entry "big.html" is 4 GiB, over the 1 GiB cap per entry');
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it('caps expanded bytes (declared and actually inflated) and the entry count', async () => {
    const limits = { maxExpandedBytes: 200_000, maxEntries: 10, maxEntryBytes: 150_000 };
    // The second header declares more than the cap allows: refused before its body is inflated.
    const two = Array.from({ length: 2 }, (_, i): RawEntry => ({ path: `p${i}.html`, content: Buffer.alloc(120_000, 0x20) }));
    expect((await readArchive(file(tarGz(two)), limits).catch((e: Error) => e) as Error).message)
      .toBe('the bundle is refused: its entries add up to more than the 200000 bytes cap on expanded bytes');
    const entries = Array.from({ length: 11 }, (_, i): RawEntry => ({ path: `d${i}/`, type: '5' }));
    expect((await readArchive(file(tarGz([...SITE, ...entries])), limits).catch((e: Error) => e) as Error).message)
      .toBe('the bundle is refused: more than 10 entries');
    // Padding is not declared by any header: a long run of zero blocks after the end marker.
    const padded = file(gzipSync(Buffer.concat([tarBytes(SITE), Buffer.alloc(300_000)])));
    expect((await readArchive(padded, limits).catch((e: Error) => e) as Error).message)
      .toBe('the bundle is refused: it expands to more than the 200000 bytes cap');
  });

  it('refuses a gzip inside the gzip; a truncated archive is damaged (retried), not unsafe', async () => {
    const nested = await readArchive(file(gzipSync(tarGz(SITE)))).catch((e: Error) => e);
    expect((nested as Error).message).toBe('the bundle is refused: the archive is compressed twice');
    const whole = tarGz(SITE);
    const cut = await readArchive(file(whole.subarray(0, whole.length - 20))).catch((e: Error) => e);
    expect(cut).toBeInstanceOf(DamagedArchiveError);
  });
});
