// The lake in a local directory: files are COPYed to a temporary name beside their final one,
// flushed, and renamed over it (atomic on POSIX), so each partition keeps one stable name
// `part-0.parquet`. One export at a time through the lock file (lake-lock.ts).
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { FatalError, messageOf } from '../../core/errors.js';
import { commitFile, isErrno, writeFileAtomicSync } from '../../core/atomic-file.js';
import { acquireLakeLock } from './lake-lock.js';
import { tempName } from '../../warehouse/partition-files.js';
import { META_DIR, TEMP_FILE_RE } from './lake-layout.js';
import type { LakeStorage, StoredObject } from './lake-storage.js';
import { plainKey } from './owned-keys.js';

export function localStorage(dir: string): LakeStorage {
  const root = resolve(dir);
  try {
    mkdirSync(root, { recursive: true });
  } catch (err) {
    throw new FatalError(`cannot create lake directory ${root}: ${messageOf(err)}`);
  }
  const pathOf = (key: string) => join(root, ...key.split('/'));
  return {
    location: root,
    replacesInPlace: true,
    lock: async (now) => {
      const release = acquireLakeLock(root, now);
      return async () => release();
    },
    list: async (tops) => {
      const objects: StoredObject[] = [];
      let tempRemoved = 0;
      const visit = (rel: string, depth: number): void => {
        for (const ent of listDir(pathOf(rel))) {
          const child = `${rel}/${ent.name}`;
          if (ent.isDirectory()) {
            if (depth < 3) visit(child, depth + 1);
          } else if (ent.isFile() && TEMP_FILE_RE.test(ent.name)) {
            rmSync(pathOf(child), { force: true });
            tempRemoved++;
          } else if (ent.isFile()) {
            objects.push({ key: child, bytes: statSync(pathOf(child)).size });
          }
        }
      };
      for (const top of [...tops, META_DIR]) visit(top, 1);
      return { objects: objects.filter((o) => !o.key.startsWith(`${META_DIR}/`)), tempRemoved };
    },
    stagingPath: (key, token) => {
      const final = pathOf(key);
      mkdirSync(dirname(final), { recursive: true });
      return join(dirname(final), tempName(basename(final), token));
    },
    put: async (staged, key) => {
      const final = pathOf(key);
      commitFile(staged, final);
      return statSync(final).size;
    },
    readText: async (key) => {
      try {
        return readFileSync(pathOf(key), 'utf8');
      } catch (err) {
        if (isErrno(err, 'ENOENT')) return null;
        throw err;
      }
    },
    writeText: async (key, text, token) => {
      const final = pathOf(key);
      mkdirSync(dirname(final), { recursive: true });
      writeFileAtomicSync(final, text, { temp: join(dirname(final), tempName(basename(final), token)) });
    },
    delete: async (keys) => {
      let n = 0;
      for (const key of keys) if (removeFile(root, key)) n++;
      return n;
    },
    close: async () => {},
  };
}

/**
 * Deletes a lake file, then its partition directories while they are empty (never the table
 * directory). A key that is not plain or resolves outside the lake root is refused: whatever the
 * caller checked, this store never deletes outside its own directory.
 */
function removeFile(root: string, key: string): boolean {
  const parts = key.split('/');
  const target = resolve(root, ...parts);
  if (!plainKey(key) || !target.startsWith(`${root}${sep}`)) {
    throw new FatalError(`refusing to delete ${JSON.stringify(key.slice(0, 120))}: not a file inside the lake ${root}`);
  }
  let existed = true;
  try {
    rmSync(join(root, ...parts));
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw err;
    existed = false;
  }
  for (let depth = parts.length - 1; depth > 1; depth--) {
    try {
      rmdirSync(join(root, ...parts.slice(0, depth)));
    } catch (err) {
      if (isErrno(err, 'ENOENT')) continue;
      if (isErrno(err, 'ENOTEMPTY', 'EEXIST')) break;
      throw err;
    }
  }
  return existed;
}

function listDir(path: string) {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
    throw err;
  }
}
