// Reads a downloaded bundle completely, as a stream: gzip and tar are checked end to end (every
// entry is iterated, node-tar in strict mode, so a truncated or corrupted archive throws), and the
// `.html` files become the page inventory (path, <title> with entities decoded, bytes). Nothing is
// extracted, but the deployment will extract it: entries that would land outside the root (absolute
// paths, `..`, links leaving it), devices, fifos and unknown types are refused, and so is an
// archive over the caps (expanded bytes, entries, entry size), before its bodies are inflated.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { FatalError, messageOf } from '../core/errors.js';
import { stripControls } from '../core/server-text.js';
import { formatBytes } from '../sync/api/http.js';
import { decodeEntities } from './html-entities.js';
import { pagePathOfEntry } from './page-path.js';
import { entryProblem, show } from './archive-entry.js';

export interface ArchivePage {
  path: string;
  title: string | null;
  bytes: number;
}

export interface ArchiveContents {
  /** Entries of every type (files, directories, …). */
  entries: number;
  /** Sorted by path; one per distinct path. */
  pages: ArchivePage[];
  hasSitemap: boolean;
}

export interface ArchiveLimits {
  /** Bytes of the tar stream once gunzipped (declared entry sizes are counted as headers arrive). */
  maxExpandedBytes: number;
  maxEntries: number;
  maxEntryBytes: number;
}

/** The archive cannot be read completely: the download is damaged (or not a bundle). Retried. */
export class DamagedArchiveError extends Error {
  override name = 'DamagedArchiveError';
}

/** The archive reads, but must not be handed to a deployment: unsafe or over a cap. Not retried. */
export class UnsafeArchiveError extends FatalError {
  override name = 'UnsafeArchiveError';
}

const GIB = 1024 ** 3;

/**
 * Caps for an archive of `compressedBytes`: entries up to 1 GiB, 200,000 entries, and at most
 * 200 times the download expanded (a site of HTML and assets compresses far less; a gzip bomb far
 * more), within [1 GiB, 16 GiB].
 */
export function defaultArchiveLimits(compressedBytes: number): ArchiveLimits {
  return { maxExpandedBytes: Math.min(16 * GIB, Math.max(GIB, 200 * compressedBytes)), maxEntries: 200_000, maxEntryBytes: GIB };
}

/** A title is looked for in the first bytes of a page only; the rest is counted, not kept. */
const HEAD_BYTES = 256 * 1024;
const MAX_TITLE_CHARS = 1000;
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

export async function readArchive(file: string, limits?: ArchiveLimits): Promise<ArchiveContents> {
  await requireGzip(file);
  const lim = limits ?? defaultArchiveLimits((await stat(file)).size);
  const pages = new Map<string, ArchivePage>();
  let entries = 0;
  let declared = 0;
  let hasSitemap = false;
  let refused: UnsafeArchiveError | null = null;
  const stop = new AbortController();
  const refuse = (why: string) => {
    refused ??= new UnsafeArchiveError(`the bundle is refused: ${stripControls(why)}`);
    stop.abort();
  };

  const parser = new Parser({ strict: true, zstd: false });
  const pending: Promise<void>[] = [];
  parser.on('ignoredEntry', (entry: ReadEntry) => {
    refuse(`entry ${show(entry.path)} has an unsupported type (${entry.type})`);
    entry.resume();
  });
  parser.on('entry', (entry: ReadEntry) => {
    if (refused) return void entry.resume();
    entries++;
    declared += entry.size ?? 0;
    const problem = entryProblem(entry) ??
      (entries > lim.maxEntries ? `more than ${lim.maxEntries} entries` : null) ??
      ((entry.size ?? 0) > lim.maxEntryBytes ? `entry ${show(entry.path)} is ${formatBytes(entry.size ?? 0)}, over the ${formatBytes(lim.maxEntryBytes)} cap per entry` : null) ??
      (declared > lim.maxExpandedBytes ? `its entries add up to more than the ${formatBytes(lim.maxExpandedBytes)} cap on expanded bytes` : null);
    if (problem) {
      refuse(problem);
      return void entry.resume();
    }
    const path = FILE_TYPES.has(entry.type) ? pagePathOfEntry(entry.path) : null;
    if (entry.path.replace(/^\.\//, '') === 'sitemap.xml') hasSitemap = true;
    if (path === null) return void entry.resume();
    const read = readTitle(entry).then((title) => void pages.set(path, { path, title, bytes: entry.size ?? 0 }));
    read.catch(() => {}); // awaited below; an entry failing after a refusal is not an unhandled rejection
    pending.push(read);
  });

  let expanded = 0;
  let first = true;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      // A gzip (or zstd) inside the gzip would be inflated again by the tar parser, uncounted.
      if (first && ((chunk[0] === 0x1f && chunk[1] === 0x8b) || (chunk.length >= 4 && chunk.readUInt32LE(0) === 0xfd2fb528))) {
        refuse('the archive is compressed twice');
      }
      first = false;
      expanded += chunk.length;
      if (expanded > lim.maxExpandedBytes) refuse(`it expands to more than the ${formatBytes(lim.maxExpandedBytes)} cap`);
      cb(null, chunk);
    },
  });
  try {
    await pipeline(createReadStream(file), createGunzip(), counter, intoParser(parser), { signal: stop.signal });
    await Promise.all(pending);
  } catch (err) {
    if (refused) throw refused;
    throw new DamagedArchiveError(`the archive cannot be read completely: ${stripControls(messageOf(err))}`);
  }
  if (refused) throw refused;
  if (pages.size === 0) throw new DamagedArchiveError('the archive holds no .html pages');
  const sorted = [...pages.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, pages: sorted, hasSitemap };
}

/** A Writable feeding the tar parser with its backpressure (write() false → wait for 'drain'). */
function intoParser(parser: Parser): Writable {
  let failed: Error | null = null;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (failed) return cb(failed);
      if (parser.write(chunk)) cb();
      else parser.once('drain', () => cb(failed));
    },
    final(cb) {
      if (failed) return cb(failed);
      parser.once('end', () => cb(failed));
      parser.end();
    },
  });
  parser.on('error', (err: Error) => {
    failed ??= err;
    sink.destroy(err);
  });
  return sink;
}

async function requireGzip(file: string): Promise<void> {
  const fh = await open(file, 'r');
  try {
    const { bytesRead, buffer } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    if (bytesRead < 2 || buffer[0] !== 0x1f || buffer[1] !== 0x8b) {
      throw new DamagedArchiveError('the bundle is not a gzip file');
    }
  } finally {
    await fh.close();
  }
}

function readTitle(entry: ReadEntry): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    entry.on('data', (chunk: Buffer) => {
      if (kept < HEAD_BYTES) {
        chunks.push(chunk);
        kept += chunk.length;
      }
    });
    entry.on('end', () => resolve(titleOf(Buffer.concat(chunks).toString('utf8'))));
    entry.on('error', reject);
  });
}

/** The first <title>…</title>, entities decoded, controls stripped, whitespace collapsed, bounded; null when absent or empty. */
export function titleOf(html: string): string | null {
  const m = /<title(?:\s[^>]*)?>([\s\S]*?)<\/title\s*>/i.exec(html);
  if (!m) return null;
  const title = stripControls(decodeEntities(m[1]!)).replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_CHARS);
  return title === '' ? null : title;
}
