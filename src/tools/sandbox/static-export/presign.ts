// S3-like presigned bundle links: the query carries the issue instant and lifetime, and an HMAC of
// (jobId, date, expires) with a secret only this sandbox knows. Millisecond precision (unlike S3)
// so tests can use sub-second lifetimes.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface PresignedLink {
  url: string;
  expiresAt: Date;
}

export type LinkCheck = { ok: true } | { ok: false; reason: 'missing' | 'signature' | 'expired' };

const ALGORITHM = 'AWS4-HMAC-SHA256';

export function presign(secret: Buffer, base: string, jobId: string, now: Date, ttlMs: number): PresignedLink {
  const date = amzDate(now);
  const expires = (Math.max(0, ttlMs) / 1000).toString();
  const q = new URLSearchParams({
    'X-Amz-Algorithm': ALGORITHM,
    'X-Amz-Credential': 'SANDBOXKEY/static-exports/s3/aws4_request',
    'X-Amz-Date': date,
    'X-Amz-Expires': expires,
    'X-Amz-SignedHeaders': 'host',
    'X-Amz-Signature': signature(secret, jobId, date, expires),
  });
  return { url: `${base}/bundles/${jobId}/bundle.tar.gz?${q}`, expiresAt: new Date(now.getTime() + Math.max(0, ttlMs)) };
}

export function checkLink(secret: Buffer, jobId: string, query: URLSearchParams, now: Date): LinkCheck {
  const date = query.get('X-Amz-Date');
  const expires = query.get('X-Amz-Expires');
  const sig = query.get('X-Amz-Signature');
  if (!date || !expires || !sig) return { ok: false, reason: 'missing' };
  const want = Buffer.from(signature(secret, jobId, date, expires), 'hex');
  const got = Buffer.from(sig, 'hex');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return { ok: false, reason: 'signature' };
  const issued = parseAmzDate(date);
  if (issued === null || now.getTime() > issued + Number(expires) * 1000) return { ok: false, reason: 'expired' };
  return { ok: true };
}

function signature(secret: Buffer, jobId: string, date: string, expires: string): string {
  return createHmac('sha256', secret).update(`${jobId}\n${date}\n${expires}`).digest('hex');
}

/** `20260101T120000.123Z`: S3's basic format, plus milliseconds. */
function amzDate(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '');
}

function parseAmzDate(s: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\.\d{1,3})?Z$/.exec(s);
  if (!m) return null;
  const t = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}Z`);
  return Number.isNaN(t) ? null : t;
}
