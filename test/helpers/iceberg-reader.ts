// Reading the lake's Iceberg tables with icebird (an independent reader we did not write) over
// HTTP on 127.0.0.1. Iceberg v2 paths are absolute: a local lake's are file:// URIs, an S3 lake's
// s3://bucket/key (icebird turns those into https://bucket.s3.amazonaws.com/key). The reader's
// fetch is given a map from those bases to a tiny static HTTP server over the lake folder, or to
// the s3rver endpoint; nothing else about the reader is touched.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { icebergMetadata, icebergRead } from 'icebird';

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `root` read-only (GET with Range, HEAD), the way an object store or CDN would. */
export async function serveFolder(root: string): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    const st = path.startsWith(root + sep) ? statSync(path, { throwIfNoEntry: false }) : undefined;
    if (!st?.isFile()) {
      res.writeHead(404).end();
      return;
    }
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    const end = m && m[2] ? Math.min(Number(m[2]), st.size - 1) : st.size - 1;
    res.writeHead(m ? 206 : 200, { 'content-length': String(end - start + 1), ...(m ? { 'content-range': `bytes ${start}-${end}/${st.size}` } : {}) });
    if (req.method === 'HEAD') res.end();
    else createReadStream(path, { start, end }).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Routes the reader's requests for `from` (a URI base) to `to` (an http base on 127.0.0.1).
 * `rawKeys`: the rest of the URL is an S3 key as icebird passes it, unescaped (a Hive-escaped
 * `project_id=docs%2Fx` is a literal `%` in the key): each segment is percent-encoded for HTTP.
 */
export function routeFetch(routes: { from: string; to: string; rawKeys?: boolean }[]): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const r = routes.find((x) => url.startsWith(x.from));
    if (!r) throw new Error(`test reader: no route for ${url}`);
    const rest = url.slice(r.from.length);
    return original(r.to + (r.rawKeys ? rest.split('/').map(encodeURIComponent).join('/') : rest), init);
  }) as typeof fetch;
  return () => {
    globalThis.fetch = original;
  };
}

export const localLakeBase = (lake: string): string => pathToFileURL(lake + sep).href;

export type IcebergRow = Record<string, unknown>;

export async function readIcebergTable(tableUrl: string, metadataFileName?: string): Promise<IcebergRow[]> {
  return icebergRead({ tableUrl, ...(metadataFileName ? { metadataFileName } : {}) }) as Promise<IcebergRow[]>;
}

export async function readIcebergMetadata(tableUrl: string, metadataFileName?: string) {
  return icebergMetadata({ tableUrl, ...(metadataFileName ? { metadataFileName } : {}) });
}
