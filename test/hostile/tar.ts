// Hand-made ustar archives for hostile bundles: any type flag, path, link target or declared size,
// which no well-behaved archiver would write (`../x`, links to /etc, devices, a 4 GiB header over
// an empty body).
import { gzipSync } from 'node:zlib';

export interface RawEntry {
  path: string;
  /** ustar type flag: '0' file, '1' hard link, '2' symlink, '3' char device, '4' block device, '5' dir, '6' fifo… */
  type?: string;
  content?: Buffer | string;
  linkpath?: string;
  /** Declared size, when it should differ from the content's (a header that lies). */
  size?: number;
}

const BLOCK = 512;

export function tarBytes(entries: readonly RawEntry[], opts: { end?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const body = typeof e.content === 'string' ? Buffer.from(e.content) : (e.content ?? Buffer.alloc(0));
    parts.push(header(e, e.size ?? body.length));
    if (body.length) parts.push(body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
  }
  if (opts.end !== false) parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

export function tarGz(entries: readonly RawEntry[], opts: { end?: boolean } = {}): Buffer {
  return gzipSync(tarBytes(entries, opts));
}

/** A small valid site: what a bundle holds besides the entry under test. */
export const SITE: RawEntry[] = [
  { path: 'index.html', content: '<html><head><title>Home</title></head></html>' },
  { path: 'guides/', type: '5' },
  { path: 'guides/start.html', content: '<title>Start</title>' },
];

function header(e: RawEntry, size: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(e.path.slice(0, 100), 0, 100, 'utf8');
  octal(h, 100, 8, e.type === '5' ? 0o755 : 0o644);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  if (size > 0o77777777777) {
    // base-256 for sizes over 8 GiB
    h[124] = 0x80;
    h.writeBigUInt64BE(BigInt(size), 124 + 4);
  } else {
    octal(h, 124, 12, size);
  }
  octal(h, 136, 12, 1_700_000_000);
  h.fill(0x20, 148, 156);
  h.write(e.type ?? '0', 156, 1, 'ascii');
  if (e.linkpath) h.write(e.linkpath.slice(0, 100), 157, 100, 'utf8');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

function octal(buf: Buffer, offset: number, length: number, value: number): void {
  buf.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
}
