// Reads a downloaded bundle completely: gzip and tar are checked end to end (every entry is
// iterated, node-tar in strict mode, so a truncated or corrupted archive throws), and the `.html`
// files become the page inventory (path, <title> with entities decoded, bytes). Nothing is extracted.
import { open } from 'node:fs/promises';
import { list, type ReadEntry } from 'tar';
import { messageOf } from '../core/errors.js';
import { decodeEntities } from './html-entities.js';
import { pagePathOfEntry } from './page-path.js';

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

/** The archive cannot be read completely: the download is damaged (or not a bundle). */
export class DamagedArchiveError extends Error {
  override name = 'DamagedArchiveError';
}

/** A title is looked for in the first bytes of a page only; the rest is counted, not kept. */
const HEAD_BYTES = 256 * 1024;
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

export async function readArchive(file: string): Promise<ArchiveContents> {
  await requireGzip(file);
  const pages = new Map<string, ArchivePage>();
  let entries = 0;
  let hasSitemap = false;
  const pending: Promise<void>[] = [];
  try {
    await list({
      file,
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        entries++;
        const path = FILE_TYPES.has(entry.type) ? pagePathOfEntry(entry.path) : null;
        if (entry.path.replace(/^\.\//, '') === 'sitemap.xml') hasSitemap = true;
        if (path === null) return void entry.resume();
        pending.push(readTitle(entry).then((title) => void pages.set(path, { path, title, bytes: entry.size ?? 0 })));
      },
    });
    await Promise.all(pending);
  } catch (err) {
    throw new DamagedArchiveError(`the archive cannot be read completely: ${messageOf(err)}`);
  }
  if (pages.size === 0) throw new DamagedArchiveError('the archive holds no .html pages');
  const sorted = [...pages.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, pages: sorted, hasSitemap };
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

/** The first <title>…</title>, entities decoded and whitespace collapsed; null when absent or empty. */
export function titleOf(html: string): string | null {
  const m = /<title(?:\s[^>]*)?>([\s\S]*?)<\/title\s*>/i.exec(html);
  if (!m) return null;
  const title = decodeEntities(m[1]!).replace(/\s+/g, ' ').trim();
  return title === '' ? null : title;
}
