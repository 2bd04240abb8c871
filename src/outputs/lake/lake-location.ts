// A lake location as given to --out, --lake, config `lake` or DOCS_ETL_LAKE: `s3://bucket/prefix`
// (object storage) or a local directory. Any other URL scheme is refused: `gs://x` must not become
// a local folder named `gs:`.
import { UsageError } from '../../core/errors.js';
import { lakeDeadlines } from './lake-deadlines.js';
import type { LakeStorage } from './lake-storage.js';
import { localStorage } from './local-storage.js';
import type { S3Location } from './s3-storage.js';

export type LakeLocation = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3Location);

const URL_RE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function parseLakeLocation(text: string, what = '--out'): LakeLocation {
  if (!text.trim()) throw new UsageError(`${what}: a lake directory or s3://bucket/prefix is required`);
  const scheme = URL_RE.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'local', dir: text };
  if (scheme !== 's3') {
    throw new UsageError(`${what}: unsupported lake URL ${JSON.stringify(text)}: use s3://bucket/prefix (with AWS_ENDPOINT_URL_S3 for MinIO, R2 or GCS) or a local directory`);
  }
  const rest = text.slice('s3://'.length);
  // Never echo a URL that may carry credentials (s3://KEY:SECRET@bucket): they come from the environment.
  if (/^[^/]*@/.test(rest)) throw new UsageError(`${what}: credentials do not belong in the lake URL: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) instead`);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  if (!BUCKET_RE.test(bucket)) throw new UsageError(`${what}: invalid bucket name ${JSON.stringify(bucket)} in ${JSON.stringify(text)}`);
  const parts = (slash < 0 ? '' : rest.slice(slash + 1)).split('/').filter(Boolean);
  if (parts.some((p) => p === '.' || p === '..')) throw new UsageError(`${what}: "." and ".." are not allowed in an S3 prefix`);
  return { kind: 's3', bucket, prefix: parts.length ? `${parts.join('/')}/` : '' };
}

/**
 * The storage of a lake location. The AWS SDK is loaded only for an s3:// lake (it is large).
 * `deadline`: the export's (lake-deadlines.ts); it aborts the S3 calls in flight with `deadlineError`.
 */
export async function openLakeStorage(
  text: string, env: NodeJS.ProcessEnv, what = '--out', stagingRoot?: string, deadline?: { signal: AbortSignal; error: () => Error },
): Promise<LakeStorage> {
  const loc = parseLakeLocation(text, what);
  if (loc.kind === 'local') return localStorage(loc.dir);
  const [{ s3Client, s3Secrets }, { s3Storage }] = await Promise.all([import('./s3-client.js'), import('./s3-storage.js')]);
  const limits = { callMs: lakeDeadlines(env).callMs, signal: deadline?.signal, deadlineError: deadline?.error };
  return s3Storage(s3Client(env), loc, s3Secrets(env), stagingRoot, limits);
}
