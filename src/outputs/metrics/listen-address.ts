// `--metrics-listen HOST:PORT`: where the metrics server listens. A bare port (or ":PORT") is
// loopback: the endpoint is exposed beyond the host only when a host is named. Port 0 picks one.
import { UsageError } from '../../core/errors.js';

export interface ListenAddress { host: string; port: number }

export function parseListen(text: string, what = '--metrics-listen'): ListenAddress {
  const v = text.trim();
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\s[\]]*):)?(\d{1,5})$/.exec(v);
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 0 && port <= 65_535)) throw new UsageError(`${what}: expected HOST:PORT, :PORT or PORT (port 0 picks one), got "${text}"`);
  const host = m[1] ? m[1].replace(/^\[|\]$/g, '') : '127.0.0.1';
  return { host, port };
}

/** `http://127.0.0.1:9464/metrics`, brackets around an IPv6 host. */
export function metricsUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`;
}
