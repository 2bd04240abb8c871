// A minimal, deterministic ustar + gzip writer for the sandbox's bundles. Built by hand (not with
// node-tar) so the archive is produced in memory and is byte-identical for the same input: fixed
// mtime, uid/gid 0, no user names, and zlib's gzip header carries no timestamp.
import { gzipSync } from 'node:zlib';

export interface TarFile {
  /** Relative path with `/` separators, no leading slash. Directories end with `/`. */
  path: string;
  content?: Buffer;
}

const BLOCK = 512;

export function tarGz(files: readonly TarFile[], mtime: Date): Buffer {
  const mtimeSec = Math.floor(mtime.getTime() / 1000);
  const parts: Buffer[] = [];
  for (const f of files) {
    const isDir = f.path.endsWith('/');
    const body = isDir ? Buffer.alloc(0) : (f.content ?? Buffer.alloc(0));
    parts.push(header(f.path, body.length, mtimeSec, isDir));
    if (body.length) {
      parts.push(body);
      const pad = (BLOCK - (body.length % BLOCK)) % BLOCK;
      if (pad) parts.push(Buffer.alloc(pad));
    }
  }
  parts.push(Buffer.alloc(BLOCK * 2)); // end-of-archive marker
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

function header(path: string, size: number, mtimeSec: number, isDir: boolean): Buffer {
  const h = Buffer.alloc(BLOCK);
  const { name, prefix } = splitName(path);
  h.write(name, 0, 100, 'utf8');
  octal(h, 100, 8, isDir ? 0o755 : 0o644);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, mtimeSec);
  h.fill(0x20, 148, 156); // checksum is computed with its own field as spaces
  h.write(isDir ? '5' : '0', 156, 1, 'ascii');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

function octal(buf: Buffer, offset: number, length: number, value: number): void {
  buf.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
}

/** ustar names are 100 bytes, with a 155-byte prefix split at a `/` for longer paths. */
function splitName(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new Error(`path too long for a ustar header: ${path}`);
}
