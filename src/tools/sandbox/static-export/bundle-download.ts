// GET /bundles/{jobId}/bundle.tar.gz — the "S3" side of the twin. Like S3: a request that also
// carries an Authorization header is rejected (400, two auth mechanisms), a bad signature or an
// expired link gives 403 with an XML error document. Damaged downloads are served on demand.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkLink } from './presign.js';

/** truncate: a short but self-consistent body; corrupt: flipped bytes, right size; reset: the
 *  connection drops mid-body; alternate: truncate, corrupt, truncate, … */
export type DamageKind = 'truncate' | 'corrupt' | 'reset' | 'alternate';

export interface DownloadDeps {
  secret: Buffer;
  now(): Date;
  /** The built archive of a job whose bundle was generated, or undefined. */
  archive(jobId: string): Buffer | undefined;
  /** Consumes one damaged download if any are pending; returns how to damage this one. */
  takeDamage(): Exclude<DamageKind, 'alternate'> | null;
}

const BUNDLE_PATH = /^\/bundles\/([A-Za-z0-9_-]+)\/bundle\.tar\.gz$/;

export function serveBundle(req: IncomingMessage, res: ServerResponse, url: URL, deps: DownloadDeps): void {
  const resource = url.pathname;
  const m = BUNDLE_PATH.exec(url.pathname);
  if (!m) return sendS3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.', resource);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendS3Error(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', resource);
  }
  if (req.headers.authorization !== undefined) {
    return sendS3Error(res, 400, 'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
      resource);
  }
  const jobId = m[1]!;
  const check = checkLink(deps.secret, jobId, url.searchParams, deps.now());
  if (!check.ok) {
    if (check.reason === 'expired') return sendS3Error(res, 403, 'AccessDenied', 'Request has expired', resource);
    if (check.reason === 'missing') return sendS3Error(res, 403, 'AccessDenied', 'Access Denied', resource);
    return sendS3Error(res, 403, 'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.', resource);
  }
  const archive = deps.archive(jobId);
  if (!archive) return sendS3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.', resource);
  const headers = { 'content-type': 'application/gzip', etag: `"${jobId}"`, 'accept-ranges': 'bytes' };
  if (req.method === 'HEAD') {
    res.writeHead(200, { ...headers, 'content-length': archive.length });
    return void res.end();
  }
  const damage = deps.takeDamage();
  if (damage === 'truncate') {
    const body = archive.subarray(0, Math.floor(archive.length * 0.6));
    res.writeHead(200, { ...headers, 'content-length': body.length });
    return void res.end(body);
  }
  if (damage === 'corrupt') {
    const body = Buffer.from(archive);
    const from = Math.floor(body.length * 0.4);
    for (let i = from; i < Math.min(body.length - 8, from + 32); i++) body[i] = body[i]! ^ 0xff;
    res.writeHead(200, { ...headers, 'content-length': body.length });
    return void res.end(body);
  }
  res.writeHead(200, { ...headers, 'content-length': archive.length });
  if (damage === 'reset') {
    res.write(archive.subarray(0, Math.floor(archive.length / 2)), () => res.destroy());
    return;
  }
  res.end(archive);
}

/** S3 error document (`<Error><Code>…</Code><Message>…</Message></Error>`). */
function sendS3Error(res: ServerResponse, status: number, code: string, message: string, resource: string): void {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>` +
    `<Resource>${resource}</Resource><RequestId>SANDBOX</RequestId></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(xml) });
  res.end(xml);
}
