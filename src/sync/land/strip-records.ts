// A page with invalid records is landed with each record stored once (issue 23): the valid ones in
// `valid`, the invalid ones in `invalid[].raw`, and the body reduced to its page-level fields (its
// records list emptied; `null` for endpoints whose body is the one record). Landing the body as
// received besides them would store every record twice, and a large invalid one would then size
// the merge's JSON buffer (and the disk) for nothing. `stripped: true` marks such a page.
import type { PipelineDefinition } from '../pipeline/definition.js';

/** The body to land for a page with invalid records (see the header). */
export function strippedBody(p: Pick<PipelineDefinition, 'recordsField'>, body: string | Buffer): string {
  if (p.recordsField === null) return 'null';
  const parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 'null';
  return JSON.stringify({ ...(parsed as Record<string, unknown>), [p.recordsField]: [] });
}
