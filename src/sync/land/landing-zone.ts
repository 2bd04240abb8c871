// The landing zone: every fetched page as received, one file per page, per stream (project and
// pipeline), numbered by a sequence that only grows. Writing the file (temp file with a random
// name opened exclusively, fsync, rename, fsync of the folder) is the page's checkpoint: a crash
// never loses a landed page and never leaves half a file under a page's name. Merged pages are
// deleted, or kept compressed (`--keep-raw`) for `docs-etl rebuild`.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { writeDurably } from '../../core/atomic-file.js';
import { messageOf } from '../../core/errors.js';
import { checkLandedVersion, metaOf, serializeLanded, type LandedFile, type LandedMeta, type LandedPage } from '../pipeline/landed-page.js';

export interface Stream {
  projectId: string;
  pipeline: string;
}

const SEQ_DIGITS = 12;

/** Told when landed pages that do not parse were dropped (`path`: the first; `dropped`: it and the later ones). */
export type OnUnreadable = (info: { path: string; reason: string; dropped: number }) => void;

export class LandingZone {
  constructor(readonly dir: string, private readonly onUnreadable?: OnUnreadable) {}

  /** Folder of a stream; project ids are made safe for file names (docs-etl refuses `.` and `..`). */
  streamDir(s: Stream, kept = false): string {
    return join(this.dir, kept ? 'kept' : 'pages', s.pipeline, safeName(s.projectId));
  }

  /** Writes one page durably; returns the file. The caller numbers pages (`meta.seq`). */
  land(page: LandedPage, body: string | Buffer): LandedFile {
    const dir = this.streamDir({ projectId: page.project_id, pipeline: page.pipeline });
    const path = join(dir, fileName(page.seq));
    writeDurably(path, serializeLanded(page, body));
    return { path, meta: metaOf(page) };
  }

  /** Landed pages of a stream, oldest first (temp files of a killed write are removed). */
  list(s: Stream): LandedFile[] {
    return this.readable(this.streamDir(s));
  }

  /** Every stream with landed pages. */
  streams(): Stream[] {
    const root = join(this.dir, 'pages');
    const out: Stream[] = [];
    for (const pipeline of subdirs(root)) {
      for (const name of subdirs(join(root, pipeline))) {
        const files = this.readable(join(root, pipeline, name));
        if (files.length) out.push({ pipeline, projectId: files[0]!.meta.project_id });
      }
    }
    return out;
  }

  /**
   * The pages of a folder that parse. A page that does not (cut short by an older version's short
   * write, damaged on disk) is dropped with every later page of its stream: nothing after it was
   * merged, so the checkpoint still points at the page before it (or its window's start) and the
   * run reads them again, instead of stopping on it forever.
   */
  private readable(dir: string): LandedFile[] {
    const paths = this.files(dir);
    const out: LandedFile[] = [];
    for (const [i, path] of paths.entries()) {
      let meta: LandedMeta;
      let parsed: LandedPage;
      try {
        parsed = JSON.parse(readFileSync(path, 'utf8')) as LandedPage;
        meta = metaOf(parsed);
        if (typeof meta.project_id !== 'string' || typeof meta.seq !== 'number') throw new Error('not a landed page');
      } catch (err) {
        const rest = paths.slice(i);
        for (const p of rest) rmSync(p, { force: true });
        this.onUnreadable?.({ path, reason: messageOf(err).split('\n')[0]!.slice(0, 200), dropped: rest.length });
        break;
      }
      // A page that parses but is of another format version stops the run (not dropped: a newer
      // docs-etl may still merge it).
      checkLandedVersion(parsed, path);
      out.push({ path, meta });
    }
    return out;
  }

  /** Highest sequence landed or kept for a stream (0 when none). */
  lastSeq(s: Stream): number {
    const seqs = [...this.files(this.streamDir(s)), ...this.files(this.streamDir(s, true), '.json.gz')].map(seqOf);
    return seqs.length ? Math.max(...seqs) : 0;
  }

  /** After the merge committed: delete the files, or keep them compressed. */
  release(files: readonly LandedFile[], keep: boolean): void {
    for (const f of files) {
      if (keep) {
        const kept = join(this.streamDir({ projectId: f.meta.project_id, pipeline: f.meta.pipeline }, true), `${fileName(f.meta.seq)}.gz`);
        writeDurably(kept, gzipSync(readFileSync(f.path)));
      }
      rmSync(f.path, { force: true });
    }
  }

  /** Kept pages of a stream, oldest first, with their text (for rebuild). */
  *kept(s: Stream): Generator<{ seq: number; text: string; path: string }> {
    for (const path of this.files(this.streamDir(s, true), '.json.gz')) {
      yield { seq: seqOf(path), text: gunzipSync(readFileSync(path)).toString('utf8'), path };
    }
  }

  /** Streams with kept pages. */
  keptStreams(): Stream[] {
    const root = join(this.dir, 'kept');
    const out: Stream[] = [];
    for (const pipeline of subdirs(root)) {
      for (const name of subdirs(join(root, pipeline))) {
        const first = this.files(join(root, pipeline, name), '.json.gz')[0];
        if (first) out.push({ pipeline, projectId: (JSON.parse(gunzipSync(readFileSync(first)).toString('utf8')) as LandedMeta).project_id });
      }
    }
    return out;
  }

  /** Removes kept pages older than `maxAgeMs` (by file time); returns how many. */
  pruneKept(now: Date, maxAgeMs: number): number {
    let removed = 0;
    const root = join(this.dir, 'kept');
    for (const pipeline of subdirs(root)) {
      for (const name of subdirs(join(root, pipeline))) {
        for (const path of this.files(join(root, pipeline, name), '.json.gz')) {
          if (now.getTime() - statSync(path).mtimeMs > maxAgeMs) {
            rmSync(path, { force: true });
            removed++;
          }
        }
      }
    }
    return removed;
  }

  /** Removes every landed and kept page of a stream (reset). */
  forget(s: Stream): void {
    rmSync(this.streamDir(s), { recursive: true, force: true });
    rmSync(this.streamDir(s, true), { recursive: true, force: true });
  }

  /** Removes temp files left by a killed write (call before anything lands in this process). */
  removeTemp(): void {
    const walk = (dir: string): void => {
      for (const d of subdirs(dir)) walk(join(dir, d));
      for (const n of names(dir)) if (n.endsWith('.tmp')) rmSync(join(dir, n), { force: true });
    };
    walk(this.dir);
  }

  private files(dir: string, ext: '.json' | '.json.gz' = '.json'): string[] {
    const re = ext === '.json' ? /^\d+\.json$/ : /^\d+\.json\.gz$/;
    return names(dir).filter((n) => re.test(n)).sort().map((n) => join(dir, n));
  }
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function fileName(seq: number): string {
  return `${String(seq).padStart(SEQ_DIGITS, '0')}.json`;
}

function seqOf(path: string): number {
  return Number(/(\d+)\.json(\.gz)?$/.exec(path)![1]);
}

/** A project id as a folder name: kept when plainly safe, else hex-encoded (never `.` or `..`). */
export function safeName(id: string): string {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(id) ? id : `x-${Buffer.from(id).toString('hex').slice(0, 200)}`;
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch {
    return [];
  }
}
