// Writes the self-hosted deployment values (Helm `-f values.yaml`): staticExport.enabled,
// staticExport.bundleUrl (the full presigned link: this file is the one place it is written, as the
// chart fetches the bundle with it) and staticExport.version when one was asked for. An existing
// file is updated in place (its other keys and comments stay); the write is atomic (temp + rename).
import { readFile, stat } from 'node:fs/promises';
import { Document, isMap, isScalar, parseDocument, type Pair, type Scalar, type YAMLMap } from 'yaml';
import { writeFileAtomic } from '../core/atomic-file.js';
import { FatalError } from '../core/errors.js';

export interface ValuesInput {
  bundleUrl: string;
  expiresAt: string;
  version: string | null;
  jobId: string;
  domain: string;
}

export async function writeValuesFile(file: string, v: ValuesInput): Promise<void> {
  const existing = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw new FatalError(`cannot read values file ${file}: ${err.message}`);
  });
  const doc = existing === null || existing.trim() === '' ? new Document({}) : parseDocument(existing);
  if (doc.errors.length || !isMap(doc.contents)) {
    throw new FatalError(`values file ${file} is not a YAML mapping; not overwriting it (${doc.errors[0]?.message ?? 'not a mapping'})`);
  }
  if (existing === null || existing.trim() === '') {
    doc.commentBefore = ` Self-hosted deployment values written by docs-etl static-export (${v.domain}).`;
  }
  setValues(doc, file, v);
  const text = doc.toString({ lineWidth: 0 });
  const mode = (await stat(file).catch(() => null))?.mode ?? 0o600;
  try {
    await writeFileAtomic(file, text, { mode: mode & 0o777 });
  } catch (err) {
    throw new FatalError(`cannot write values file ${file}: ${(err as Error).message}`);
  }
}

function setValues(doc: Document, file: string, v: ValuesInput): void {
  let section = doc.get('staticExport', true);
  if (!isMap(section)) {
    section = doc.createNode({});
    doc.set('staticExport', section);
  }
  const map = section as YAMLMap;
  setKey(doc, map, 'enabled', true);
  const url = setKey(doc, map, 'bundleUrl', v.bundleUrl);
  const cmd = `docs-etl static-export --job ${v.jobId} --values-file ${file.replace(/\s+/g, ' ')}`;
  (url.key as Scalar).commentBefore = ` bundleUrl expires at ${v.expiresAt}: regenerate before then (${cmd})`;
  if (v.version) setKey(doc, map, 'version', v.version);
  else map.delete('version');
}

/**
 * Sets `key` in place (keeping its position), with node key and value so comments can attach.
 * Strings are double-quoted: a bare 2026-11-01 could be read as a date by other YAML parsers.
 */
function setKey(doc: Document, map: YAMLMap, key: string, value: unknown): Pair {
  const node = doc.createNode(value);
  if (isScalar(node) && typeof value === 'string') node.type = 'QUOTE_DOUBLE';
  const pair = map.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
  if (pair) {
    if (!isScalar(pair.key)) pair.key = doc.createNode(key);
    pair.value = node;
    return pair;
  }
  const created = doc.createPair(key, node) as Pair;
  map.items.push(created);
  return created;
}
