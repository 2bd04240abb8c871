// Operations settings (docs/operations.md): the metrics endpoint (--metrics-listen, config
// metricsListen), the textfile (--metrics-file, DOCS_ETL_METRICS_FILE, config metricsFile), freshness
// SLAs (config freshness) and alerts (config alerts, quarantineAlert). A webhook URL is a secret: the
// config names the environment variable that holds it; no message ever quotes the URL.
import { parseDuration } from '../core/duration.js';
import { UsageError } from '../core/errors.js';
import { parseFreshness, type FreshnessSla } from '../outputs/status/freshness.js';
import { ALERT_DEADLINE_MS, ALERT_EVENTS, type AlertEvent } from '../outputs/alerts/alert-events.js';
import { parseListen, type ListenAddress } from '../outputs/metrics/listen-address.js';
import { loadConfigFile, type ConfigFile } from './config-file.js';

export interface AlertSink {
  /** The variable that holds the URL: what messages name. */
  urlEnv: string;
  url: string;
  format: 'slack' | 'json';
  on: readonly AlertEvent[];
}

export interface OpsSettings {
  metricsListen: ListenAddress | null;
  metricsFile: string | null;
  freshness: FreshnessSla;
  alerts: AlertSink[];
  /** A run alerts when it quarantines more than `count` records, or more than `share` of its records. */
  quarantineAlert: { count: number | null; share: number | null };
  /** Total time alert delivery may take per run. */
  alertDeadlineMs: number;
}

export interface OpsFlags { metricsListen?: string; metricsFile?: string; config?: string }

export function resolveOpsSettings(flags: OpsFlags, env: NodeJS.ProcessEnv, loaded?: ConfigFile | null): OpsSettings {
  const file = loaded !== undefined ? loaded : flags.config ? loadConfigFile(flags.config) : null;
  const listen = flags.metricsListen !== undefined ? [flags.metricsListen, '--metrics-listen'] : file?.metricsListen !== undefined ? [file.metricsListen, 'config metricsListen'] : null;
  const metricsFile = flags.metricsFile ?? (env.DOCS_ETL_METRICS_FILE?.trim() || undefined) ?? file?.metricsFile ?? null;
  return {
    metricsListen: listen ? parseListen(listen[0]!, listen[1]!) : null,
    metricsFile,
    freshness: parseFreshness(file?.freshness ?? {}),
    alerts: (file?.alerts ?? []).map((a, i) => sinkOf(a, i, env)),
    quarantineAlert: quarantineAlertOf(file?.quarantineAlert),
    alertDeadlineMs: file?.alertDeadline ? parseDuration(file.alertDeadline, 'alertDeadline') : ALERT_DEADLINE_MS,
  };
}

function sinkOf(a: NonNullable<ConfigFile['alerts']>[number], i: number, env: NodeJS.ProcessEnv): AlertSink {
  const url = env[a.urlEnv]?.trim();
  if (!url) throw new UsageError(`environment variable ${a.urlEnv} (config alerts[${i}].urlEnv) is not set`);
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  // The URL itself is never quoted: it is the webhook's secret.
  if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new UsageError(`environment variable ${a.urlEnv} (config alerts[${i}].urlEnv) is not an http(s) URL`);
  return { urlEnv: a.urlEnv, url, format: a.format, on: a.on ?? ALERT_EVENTS };
}

function quarantineAlertOf(v: number | string | undefined): OpsSettings['quarantineAlert'] {
  if (v === undefined) return { count: 100, share: 0.01 };
  if (typeof v === 'number') return { count: v, share: null };
  return { count: null, share: Number(v.slice(0, -1)) / 100 };
}

/** Only the freshness SLAs of a config file (`status --check --config`: no alert URL needed). */
export function freshnessFromConfig(path: string | undefined): FreshnessSla {
  return parseFreshness(path ? (loadConfigFile(path).freshness ?? {}) : {});
}
