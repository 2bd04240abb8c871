// Whether one tar entry is safe to hand to a deployment that extracts the bundle: a regular file,
// directory or link whose path, and link target, stay inside the extraction root. Devices, fifos
// and other types are never part of a static site.
import { posix } from 'node:path';
import { stripControls } from '../core/server-text.js';

const ALLOWED_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);
const MAX_PATH_CHARS = 4096;
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface EntryHeader {
  path: string;
  type: string;
  linkpath?: string;
}

/** Why the entry is refused, or null when it is safe. */
export function entryProblem(e: EntryHeader): string | null {
  if (!ALLOWED_TYPES.has(e.type)) return `entry ${show(e.path)} is a ${e.type}, which a static site never holds`;
  const bad = pathProblem(e.path);
  if (bad) return `entry ${show(e.path)} ${bad}`;
  if (e.type === 'SymbolicLink' || e.type === 'Link') {
    const target = slashes(e.linkpath ?? '');
    // A symbolic link resolves from its own directory; a hard link names a path from the root.
    const from = e.type === 'SymbolicLink' ? posix.dirname(slashes(e.path)) : '.';
    if (!target || isAbsolute(target) || leavesRoot(posix.join(from, target)) || CONTROL.test(target)) {
      return `entry ${show(e.path)} links to ${show(target)}, outside the archive`;
    }
  }
  return null;
}

function pathProblem(path: string): string | null {
  if (path.length > MAX_PATH_CHARS) return `has a path longer than ${MAX_PATH_CHARS} characters`;
  if (CONTROL.test(path)) return 'has control characters in its path';
  const p = slashes(path);
  if (isAbsolute(p)) return 'has an absolute path';
  if (p.split('/').includes('..')) return 'has a ".." path segment';
  return null;
}

/** Backslashes count as separators: a Windows extractor reads them so. */
function slashes(p: string): string {
  return p.replace(/\\/g, '/');
}

function isAbsolute(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:/.test(p);
}

function leavesRoot(p: string): boolean {
  const n = posix.normalize(p);
  return n === '..' || n.startsWith('../');
}

/** An entry path for a message: quoted, controls stripped, bounded. */
export function show(path: string): string {
  return JSON.stringify(stripControls(path).slice(0, 200));
}
