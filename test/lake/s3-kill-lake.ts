// The setting of the S3 kill tests: a warehouse filled by lake-fixture.ts, s3rver on 127.0.0.1
// behind a proxy that SIGKILLs an armed exporter at its first PUT matching a pattern (that upload
// is never stored), and icebird's fetch routed to s3rver. Registers its own beforeAll/afterAll.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { cliEnv, spawnCli, type CliResult } from '../helpers/cli.js';
import { routeFetch } from '../helpers/iceberg-reader.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { tempDir } from '../helpers/tmp.js';
import { fillWarehouse } from './lake-fixture.js';

const DIST_MAIN = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

export interface KillLake {
  readonly s3: TestS3;
  readonly warehouse: string;
  /** s3://bucket/<prefix>: the lake's URL. */
  readonly url: string;
  /** What an engine reads for a table (icebird over the routed fetch). */
  tableUrl(table: string): string;
  /** `export-parquet` to the lake through the proxy, SIGKILLed at its first PUT matching `trigger`; the URL it was killed at. */
  exportKilledAt(trigger: RegExp): Promise<{ result: CliResult; hit: string | null }>;
}

export function killLake(prefix: string, fill: { days: number; turnsPerDay: number }): KillLake {
  let tmp: ReturnType<typeof tempDir>;
  let s3: TestS3;
  let proxy: Server;
  let proxyUrl: string;
  let armed: { child: ChildProcess; trigger: RegExp; hit: string | null } | null = null;
  let restoreFetch: () => void;

  beforeAll(async () => {
    if (!existsSync(DIST_MAIN)) throw new Error('dist/ is missing: run `npm run build` before this test');
    tmp = tempDir('docs-etl-ice-kill-');
    const wh = await openWarehouse(join(tmp.dir, 'w.duckdb'));
    try {
      await fillWarehouse(wh.conn, fill);
    } finally {
      wh.close();
    }
    s3 = await startS3(join(tmp.dir, 's3'));
    const target = new URL(s3.endpoint);
    proxy = createServer((req, res) => {
      if (armed && !armed.hit && req.method === 'PUT' && armed.trigger.test(decodeURIComponent(req.url ?? ''))) {
        armed.hit = req.url ?? '';
        armed.child.kill('SIGKILL');
        req.socket.destroy();
        return;
      }
      const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    restoreFetch = routeFetch([{ from: `https://${s3.bucket}.s3.amazonaws.com/`, to: `${s3.endpoint}/${s3.bucket}/`, rawKeys: true }]);
  }, 60_000);

  afterAll(async () => {
    restoreFetch?.();
    await new Promise((r) => proxy?.close(r));
    await s3?.close();
    tmp?.cleanup();
  });

  return {
    get s3() { return s3; },
    get warehouse() { return join(tmp.dir, 'w.duckdb'); },
    get url() { return `s3://${s3.bucket}/${prefix}`; },
    tableUrl: (t) => `https://${s3.bucket}.s3.amazonaws.com/${prefix}/${t}`,
    async exportKilledAt(trigger) {
      const child = spawnCli(['export-parquet', '--out', `s3://${s3.bucket}/${prefix}`, '--warehouse', join(tmp.dir, 'w.duckdb')],
        cliEnv({ LOG_LEVEL: 'warn', AWS_ENDPOINT_URL_S3: proxyUrl, AWS_ACCESS_KEY_ID: s3.env.AWS_ACCESS_KEY_ID!, AWS_SECRET_ACCESS_KEY: s3.env.AWS_SECRET_ACCESS_KEY!, AWS_REGION: 'us-east-1' }));
      armed = { child, trigger, hit: null };
      try {
        const result = await child.result;
        return { result, hit: armed.hit };
      } finally {
        armed = null;
      }
    },
  };
}
