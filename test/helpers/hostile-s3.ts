// A tiny S3-compatible server on 127.0.0.1 that misbehaves on purpose (node:http, path-style,
// objects in memory): enough of GetObject, PutObject, DeleteObject and ListObjectsV2 for a lake
// export, plus one way to go wrong:
//   'same-token'   ListObjectsV2 says "truncated" for ever, always with the same continuation token;
//   'new-token'    ... for ever, with a new token each page;
//   'silent'       accepts every connection and request and never answers;
//   'forbid-data'  a PutObject of a .parquet key answers 403, and every request after it too
//                  (credentials revoked mid-upload), so the lock's release fails as well.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type HostileMode = 'same-token' | 'new-token' | 'silent' | 'forbid-data';

export interface HostileS3 {
  endpoint: string;
  env: NodeJS.ProcessEnv;
  /** Requests by operation ('list', 'get', 'put', 'delete'), and how many were answered 403. */
  counts: Record<string, number>;
  objects: Map<string, Buffer>;
  close(): Promise<void>;
}

const xml = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
};
const s3Error = (res: ServerResponse, status: number, code: string, message: string) =>
  xml(res, status, `<Error><Code>${code}</Code><Message>${message}</Message></Error>`);

export async function startHostileS3(mode: HostileMode, bucket = 'lake-bucket'): Promise<HostileS3> {
  const objects = new Map<string, Buffer>();
  const counts: Record<string, number> = {};
  const sockets = new Set<Socket>();
  let revoked = false;
  let page = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, b, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const op = req.method === 'GET' && key === '' ? 'list' : (req.method ?? '').toLowerCase().replace(/^head$/, 'get');
    counts[op] = (counts[op] ?? 0) + 1;
    if (mode === 'silent') return; // never answered: the socket stays open until the client gives up
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (b !== bucket) return s3Error(res, 404, 'NoSuchBucket', 'no such bucket');
    if (revoked || (mode === 'forbid-data' && op === 'put' && key.endsWith('.parquet'))) {
      revoked = true;
      counts.forbidden = (counts.forbidden ?? 0) + 1;
      return s3Error(res, 403, 'AccessDenied', 'Access Denied');
    }
    if (op === 'list') {
      const prefix = url.searchParams.get('prefix') ?? '';
      if (mode === 'same-token' || mode === 'new-token') {
        const token = mode === 'same-token' ? 'again' : `page-${++page}`;
        return xml(res, 200, `<ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix><KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated><NextContinuationToken>${token}</NextContinuationToken></ListBucketResult>`);
      }
      const contents = [...objects].filter(([k]) => k.startsWith(prefix))
        .map(([k, v]) => `<Contents><Key>${k}</Key><Size>${v.length}</Size><ETag>"x"</ETag></Contents>`).join('');
      return xml(res, 200, `<ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`);
    }
    if (op === 'get') {
      const body = objects.get(key);
      if (!body) return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      res.writeHead(200, { 'content-length': body.length, etag: '"x"' });
      return res.end(req.method === 'HEAD' ? undefined : body);
    }
    if (op === 'put') {
      objects.set(key, Buffer.concat(chunks));
      res.writeHead(200, { etag: '"x"' });
      return res.end();
    }
    if (op === 'delete') {
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    s3Error(res, 501, 'NotImplemented', 'not implemented');
  };

  const server = createServer((req, res) => void handle(req, res));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint, counts, objects,
    env: { AWS_ENDPOINT_URL_S3: endpoint, AWS_ACCESS_KEY_ID: 'HOSTILE', AWS_SECRET_ACCESS_KEY: 'hostile-secret-key-0123456789', AWS_REGION: 'us-east-1' },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
