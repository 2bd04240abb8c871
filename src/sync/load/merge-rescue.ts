// When DuckDB refuses a landed page, the page is repaired instead of blocking its stream (issue 23):
// one value DuckDB cannot read or store (a lone surrogate escape, a number beyond BIGINT, a date
// past DuckDB's range, a record too large for the merge's buffer) would otherwise fail the page on
// every run, and the stream with it. The repair, in order:
//   1. the page's lone surrogate escapes become U+FFFD (pages landed before docs-etl did this at
//      fetch time), and the page is tried again;
//   2. else records over the fetch-time cap (MAX_RECORD_BYTES, nested too deep) are refused as
//      at fetch, with no DuckDB try (a try would size the merge's JSON buffer to them), and the
//      records DuckDB refuses are found by bisection, each tried in a merge that is
//      always rolled back (about 2·k·log2(n) tries for k bad records of n), and the page is
//      rewritten (same name, durably) with them among its `invalid` records, with DuckDB's reason
//      and the raw record: they go to `quarantine`, the rest merges, the checkpoint moves on. The
//      rewritten page's body keeps its page-level fields but not its records (they are in `valid`
//      and `invalid`), so no record is landed twice and a huge one no longer sizes the buffer.
// A page that passes alone is left as it is (another page of the batch is at fault). Records the
// page already held as invalid keep their place, their raw capped like any quarantined record's.
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeDurably } from '../../core/atomic-file.js';
import { messageOf } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { placeholder, quarantinable } from '../../core/quarantine-raw.js';
import { replaceLoneSurrogates } from '../../core/well-formed.js';
import { metaOf, serializeLanded, splitLanded, type InvalidRecord, type LandedFile, type LandedPage } from '../pipeline/landed-page.js';
import { refuseShape } from '../pipeline/record-shape.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import { probeGroup } from './merge-batch.js';
import type { Writer } from '../../warehouse/writer.js';

export interface RescueDeps {
  writer: Writer;
  logger: Logger;
  now: () => Date;
}

/** Bisection gives up after this many tries of one page (then the stream fails as before). */
const MAX_PROBES = 400;

/** DuckDB errors that say nothing about the records tried (the rest are the records' fault). */
const ENVIRONMENT_ERROR = /^(IO Error|Out of Memory Error|INTERRUPT Error|Interrupt|FATAL Error|Connection Error)/i;

/** The page repaired (a new LandedFile for the same path), or null when it needs no repair or cannot be. */
/**
 * `oversizeOnly` (the merge ran out of memory): the environment's failure, so no record is probed in
 * DuckDB (each probe would run out too); only records over the fetch-time cap, which an older
 * version may have landed and which size the merge's buffer, are quarantined. Null: none there.
 */
export async function repairPage(
  deps: RescueDeps, p: PipelineDefinition, file: LandedFile, opts: { failed?: boolean; oversizeOnly?: boolean } = {},
): Promise<LandedFile | null> {
  const probe = (f: LandedFile) => deps.writer.run((c) => probeGroup(c, { pipeline: p, files: [f] }, deps.now()));
  // `failed`: the page failed to merge alone already (a probe may pass where the merge ran out of
  // memory: the retry is not needed to know it).
  if (!opts.failed && !opts.oversizeOnly && await probe(file) === null) return null;
  const log = { projectId: file.meta.project_id, pipeline: p.name, seq: file.meta.seq };
  let text = readFileSync(file.path, 'utf8');
  const wf = replaceLoneSurrogates(text);
  if (wf.replaced) {
    writeDurably(file.path, wf.text);
    text = wf.text;
    deps.logger.warn({ ...log, count: wf.replaced }, 'landed page held lone UTF-16 surrogates: replaced by U+FFFD');
    if (await probe(file) === null) return file;
  }
  let split: { page: LandedPage; body: string };
  let body: unknown;
  try {
    split = splitLanded(text, file.path);
    body = JSON.parse(split.body) as unknown;
  } catch (err) {
    deps.logger.error({ ...log, err: messageOf(err) }, 'landed page cannot be repaired: it does not parse');
    return null;
  }
  const { page } = split;
  const records: unknown[] = page.valid ?? (p.recordsField === null ? [body] : recordsOf(body, p.recordsField));
  const known = new Set(page.invalid.map((q) => q.i));
  // Each record's position in the page as served (invalid ones keep theirs).
  const positions: number[] = [];
  for (let i = 0; positions.length < records.length; i++) if (!known.has(i)) positions.push(i);
  // Records over the fetch-time size cap (landed by an older version) are refused as at fetch,
  // without a DuckDB try: each try of one would size the merge's buffer to it (memory, time).
  const oversize = new Map<number, string>();
  records.forEach((r, k) => {
    const refusal = refuseShape(r);
    if (refusal?.shape) oversize.set(k, refusal.error);
  });
  const stub = p.recordsField === null || !body || typeof body !== 'object'
    ? split.body : JSON.stringify({ ...(body as Record<string, unknown>), [p.recordsField]: [] });
  const form = (keep: readonly number[], invalid: InvalidRecord[]): LandedPage => ({
    ...page, quarantined: invalid.length || 1, invalid,
    valid: keep.map((k) => records[k]), x: keep.map((k) => page.x[k] ?? null),
  });
  let probes = 0;
  const tryRecords = async (keep: readonly number[]): Promise<string | null> => {
    probes++;
    const path = join(dirname(file.path), `.probe-${randomBytes(6).toString('hex')}.tmp`);
    const probePage = form(keep, []);
    writeDurably(path, serializeLanded(probePage, stub));
    try {
      return await probe({ path, meta: metaOf(probePage) });
    } finally {
      rmSync(path, { force: true });
    }
  };
  const bad: { k: number; error: string }[] = [];
  const bisect = async (keep: readonly number[]): Promise<boolean> => {
    if (probes >= MAX_PROBES) return false;
    const err = await tryRecords(keep);
    if (err === null) return true;
    // The environment's failure (disk, memory, an interrupt) blames no record: stop looking.
    if (ENVIRONMENT_ERROR.test(messageOf(err))) return false;
    if (keep.length === 1) {
      bad.push({ k: keep[0]!, error: err });
      return true;
    }
    const half = Math.ceil(keep.length / 2);
    return (await bisect(keep.slice(0, half))) && bisect(keep.slice(half));
  };
  const all = records.map((_r, k) => k).filter((k) => !oversize.has(k));
  if (opts.oversizeOnly && !oversize.size) return null;
  if (!opts.oversizeOnly) {
    // A page that fails with no record at all is at fault by its page-level fields: no record is to blame.
    const bare = await tryRecords([]);
    if (bare !== null) {
      deps.logger.error({ ...log, err: oneLine(bare) }, 'landed page cannot be repaired: it fails with none of its records');
      return null;
    }
    if (!await bisect(all)) {
      deps.logger.error({ ...log, probes }, 'could not find which records DuckDB refuses');
      return null;
    }
  }
  // Every record passes when tried: no record is to blame (the failure was the moment's: memory,
  // disk). The page stays as landed, and is merged again by the next run; rewriting it without its
  // records in the body would merge it empty and move the checkpoint past them.
  if (bad.length === 0 && oversize.size === 0) {
    deps.logger.warn({ ...log, probes }, 'landed page failed to merge but each of its records merges: left as landed for the next run');
    return null;
  }
  const refused = new Set(bad.map((b) => b.k));
  const keep = all.filter((k) => !refused.has(k));
  const invalid = [
    ...page.invalid.map((q) => ({ ...q, raw: quarantinable(q.raw) })),
    ...[...oversize].map(([k, error]) => ({ i: positions[k]!, error, raw: placeholder(records[k]) })),
    ...bad.map((b) => ({ i: positions[b.k]!, error: `DuckDB cannot store it: ${oneLine(b.error)}`, raw: quarantinable(records[b.k]) })),
  ].sort((a, b) => a.i - b.i);
  const repaired: LandedPage = { ...form(keep, invalid), quarantined: invalid.length, repaired: true };
  // The rewritten page must itself merge; if not, it is left as it was (the stream fails, reported).
  const still = await tryRecords(keep);
  if (still !== null) {
    deps.logger.error({ ...log, err: oneLine(still) }, 'landed page cannot be repaired: its valid records still fail to merge');
    return null;
  }
  writeDurably(file.path, serializeLanded(repaired, stub));
  deps.logger.warn({ ...log, count: bad.length + oversize.size, first: bad[0] ? oneLine(bad[0].error) : ([...oversize.values()][0] ?? null), probes }, 'records DuckDB refused were quarantined; the rest of the page merges');
  return { path: file.path, meta: metaOf(repaired) };
}

function recordsOf(body: unknown, field: string): unknown[] {
  const r = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  return Array.isArray(r) ? r : [];
}

/** DuckDB's first line, without the file path it names (a temp file of the probe). */
function oneLine(msg: string): string {
  return (messageOf(msg).split('\n')[0] ?? '').replace(/ in file "[^"]*"/g, '').slice(0, 500);
}
