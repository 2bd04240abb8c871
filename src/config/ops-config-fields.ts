// The config file's operations fields (docs/operations.md), spread into configFileSchema; how they
// combine with flags and the environment is ops-config.ts. (Apart from it: config-file.ts imports this.)
import { z } from 'zod';
import { parseDuration } from '../core/duration.js';
import { messageOf } from '../core/errors.js';
import { ALERT_EVENTS } from '../outputs/alerts/alert-events.js';
import { parseListen } from '../outputs/metrics/listen-address.js';

const durationText = z.string().superRefine((v, ctx) => {
  try {
    parseDuration(v, 'freshness');
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: messageOf(err) });
  }
});

/** The config file's operations fields (spread into configFileSchema). */
export const OPS_CONFIG_FIELDS = {
  metricsListen: z.string().superRefine((v, ctx) => {
    try {
      parseListen(v, 'metricsListen');
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: messageOf(err) });
    }
  }).optional(),
  metricsFile: z.string().min(1).optional(),
  freshness: z.record(z.string().min(1), durationText).optional(),
  alerts: z.array(z.strictObject({
    urlEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name'),
    format: z.enum(['slack', 'json']),
    on: z.array(z.enum(ALERT_EVENTS)).min(1).optional(),
  })).optional(),
  /** Total time alert delivery may take per run (default 10s). */
  alertDeadline: durationText.optional(),
  /** A count ("more than N records") or a share ("1%") of a run's records. */
  quarantineAlert: z.union([z.number().int().min(1), z.string().regex(/^\d+(\.\d+)?%$/, 'expected a count or a percentage such as "1%"')]).optional(),
};

