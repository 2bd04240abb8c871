// A webhook receiver on 127.0.0.1 for alert tests: records each POSTed JSON body. `mode: 'hang'`
// accepts connections and never answers (a slow endpoint).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookSink { url: string; bodies: unknown[]; close(): Promise<void> }

export async function startWebhookSink(mode: 'ok' | 'hang' = 'ok'): Promise<WebhookSink> {
  const bodies: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += String(d)));
    req.on('end', () => {
      if (mode === 'hang') return;
      bodies.push(JSON.parse(text));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook/s3cr3t-token`, bodies,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

/** A URL whose port refuses connections (bound, then closed). */
export async function refusingUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/hook/refused-token`;
}
