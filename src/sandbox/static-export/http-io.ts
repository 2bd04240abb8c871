// Small request/response helpers of the static export twin: JSON bodies like the API, XML error
// bodies like S3.
import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY = 1 << 20;

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, error: string): void {
  sendJson(res, status, { error });
}

/** S3 error document (`<Error><Code>…</Code><Message>…</Message></Error>`). */
export function sendS3Error(res: ServerResponse, status: number, code: string, message: string, resource: string): void {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>` +
    `<Resource>${resource}</Resource><RequestId>SANDBOX</RequestId></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(xml) });
  res.end(xml);
}

/** The body parsed as JSON; not ok when it is not JSON or larger than 1 MiB. */
export async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return { ok: false };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/** The Bearer token of the request, or null. */
export function bearer(req: IncomingMessage): string | null {
  const h = req.headers.authorization;
  const m = h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m ? m[1]! : null;
}
