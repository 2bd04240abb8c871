// What the Iceberg commit needs from the lake's storage, beyond the exporter's LakeStorage:
// binary objects (Avro), an exclusive create (the commit point), listing one table's folder, and
// absolute URIs (Iceberg v2 paths are absolute). Local disk: `file://` URIs, exclusive create by
// hard-linking a complete temp file to the final name (fails if it exists). S3: `s3://bucket/key`
// URIs, exclusive create by a conditional PUT (`If-None-Match: *`; on a store that ignores it the
// lake's lock is what keeps two exporters apart). Keys are lake-relative and '/'-separated.
import { randomBytes } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fsyncPath, isErrno, writeFileAtomicSync } from '../../../core/atomic-file.js';
import { parseLakeLocation } from '../lake-location.js';

export interface IcebergIO {
  /** The absolute URI of a lake key, as written in Iceberg metadata. */
  uri(key: string): string;
  /** The lake key of a URI this lake wrote, or null when it is not under this lake. */
  keyOf(uri: string): string | null;
  readBytes(key: string): Promise<Buffer | null>;
  /** Writes an object under a name never used before (manifests, manifest lists). */
  writeBytes(key: string, body: Buffer): Promise<void>;
  /** Creates `key` with `text` only if it does not exist; false when it does. */
  createExclusive(key: string, text: string): Promise<boolean>;
  /** Replaces a small text object (the version hint). */
  replaceText(key: string, text: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every key under `prefix` (which ends in '/'). */
  list(prefix: string): Promise<string[]>;
  delete(keys: readonly string[]): Promise<void>;
  /**
   * Local disk only: publishes the data file `from` also under the immutable name `to` (a hard
   * link: the same bytes, no copy), so `from` can be replaced in place later while snapshots that
   * name `to` keep reading what they committed. Absent on object storage, where keys are unique.
   */
  pin?(from: string, to: string): Promise<void>;
  close(): void;
}

export async function openIcebergIO(location: string, env: NodeJS.ProcessEnv): Promise<IcebergIO> {
  const loc = parseLakeLocation(location);
  if (loc.kind === 'local') return localIO(resolve(loc.dir));
  const { s3IO } = await import('./iceberg-s3-io.js');
  return s3IO(loc, env);
}

function localIO(root: string): IcebergIO {
  const pathOf = (key: string) => join(root, ...key.split('/'));
  const rootUri = pathToFileURL(root + sep).href;
  const read = (key: string): Buffer | null => {
    try {
      return readFileSync(pathOf(key));
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return null;
      throw err;
    }
  };
  return {
    uri: (key) => pathToFileURL(pathOf(key)).href,
    keyOf: (uri) => (uri.startsWith(rootUri) ? relative(root, fileURLToPath(uri)).split(sep).join('/') : null),
    readBytes: async (key) => read(key),
    writeBytes: async (key, body) => {
      mkdirSync(dirname(pathOf(key)), { recursive: true });
      writeFileAtomicSync(pathOf(key), body);
    },
    createExclusive: async (key, text) => {
      const final = pathOf(key);
      mkdirSync(dirname(final), { recursive: true });
      const temp = join(dirname(final), `.${randomBytes(6).toString('hex')}.tmp`);
      writeFileSync(temp, text, { flag: 'wx' });
      try {
        fsyncPath(temp);
        linkSync(temp, final);
        fsyncPath(dirname(final));
        return true;
      } catch (err) {
        if (isErrno(err, 'EEXIST')) return false;
        throw err;
      } finally {
        rmSync(temp, { force: true });
      }
    },
    replaceText: async (key, text) => {
      mkdirSync(dirname(pathOf(key)), { recursive: true });
      writeFileAtomicSync(pathOf(key), text);
    },
    exists: async (key) => read(key) !== null,
    list: async (prefix) => {
      let names: string[];
      try {
        names = readdirSync(pathOf(prefix), { recursive: true, encoding: 'utf8' });
      } catch (err) {
        if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
        throw err;
      }
      return names.map((n) => `${prefix}${n.split(sep).join('/')}`);
    },
    delete: async (keys) => {
      for (const k of keys) rmSync(pathOf(k), { force: true });
    },
    pin: async (from, to) => {
      try {
        linkSync(pathOf(from), pathOf(to));
      } catch (err) {
        if (isErrno(err, 'EEXIST')) return;
        // A file system without hard links: a copy keeps the snapshot readable, at the cost of its bytes.
        if (isErrno(err, 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV')) copyFileSync(pathOf(from), pathOf(to));
        else throw err;
      }
    },
    close: () => {},
  };
}
