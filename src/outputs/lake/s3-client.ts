// An S3 client from the standard AWS configuration, unchanged: AWS_ACCESS_KEY_ID /
// AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN (else the SDK's chain: AWS_PROFILE, SSO, web identity,
// instance roles), AWS_REGION / AWS_DEFAULT_REGION, AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL (MinIO,
// R2, GCS interoperability). With an endpoint, addressing is path-style (bucket in the path);
// DOCS_ETL_S3_PATH_STYLE=true|false (core/env-boolean.ts) overrides. Checksums only when an operation requires them
// (some S3-compatible servers store the aws-chunked framing of a streamed body otherwise).
// Retries are the SDK's standard mode, bounded to MAX_ATTEMPTS per request; every timeout fails the
// attempt (lake-deadlines.ts: DOCS_ETL_S3_TIMEOUT), never only logs a warning.
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { FatalError, messageOf, UsageError } from '../../core/errors.js';
import { booleanEnv } from '../../core/env-boolean.js';
import { scrub, secretsOf } from '../../core/secrets.js';
import { lakeDeadlines, s3HandlerOptions } from './lake-deadlines.js';

const MAX_ATTEMPTS = 4;

export function s3Client(env: NodeJS.ProcessEnv): S3Client {
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) {
    throw new UsageError(`${env.AWS_ENDPOINT_URL_S3 ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL'}: expected an http(s) URL, got "${endpoint}"`);
  }
  const forcePathStyle = booleanEnv(env.DOCS_ETL_S3_PATH_STYLE, 'DOCS_ETL_S3_PATH_STYLE') ?? Boolean(endpoint);
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || (endpoint ? 'us-east-1' : undefined);
  const config: S3ClientConfig = {
    forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: MAX_ATTEMPTS,
    requestHandler: s3HandlerOptions(lakeDeadlines(env).callMs),
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
  };
  // Keys given in the environment passed in (tests, a parent process) take precedence; otherwise
  // the SDK's own chain reads process.env, the profile files and the instance metadata.
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    config.credentials = {
      accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    };
  }
  // On Node 20 the SDK warns on every process that its releases after January 2027 need Node 22:
  // docs-etl needs Node 22 and already says so once at start (src/cli/main.ts), and it pins the SDK,
  // so a second warning would only clutter stderr (set to anything else to see it).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client(config);
}

/** Values that must never appear in a message: every *KEY*, *TOKEN*, *SECRET* variable (the AWS keys among them). */
export const s3Secrets = (env: NodeJS.ProcessEnv): string[] => secretsOf(env);

/** One clear line for a failed S3 call: what, where, the service's error name and message; secrets masked. */
export function s3Error(what: string, err: unknown, secrets: readonly string[]): FatalError {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  let text = messageOf(err).split('\n')[0]!.slice(0, 300);
  if (/region is missing/i.test(text)) text = 'no AWS region: set AWS_REGION (or AWS_ENDPOINT_URL_S3 for an S3-compatible service)';
  if (/could not load credentials/i.test(text)) text = 'no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE';
  text = scrub(text, secrets);
  const status = e.$metadata?.httpStatusCode ? ` (HTTP ${e.$metadata.httpStatusCode})` : '';
  const name = e.name && e.name !== 'Error' && !text.startsWith(e.name) ? `${e.name}: ` : '';
  return new FatalError(`${what}: ${name}${text}${status}`);
}
