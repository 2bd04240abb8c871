// The doctor's requests. Analytics: ONE request per project (`GET …/assistant?limit=1` over the last
// hour), through the organization's persisted request budget, because it spends the same 100
// requests per hour as the syncs. Static export: one GET of a job id that cannot exist per
// organization (404 = the plan allows static export, 403 = it does not); not in the analytics budget.
// No retries: the doctor reports what it saw. The key is only ever in the Authorization header.
import type { RequestBudget } from '../../budget/budget.js';
import { httpText, retryAfterMs, type HttpResponse } from '../../sync/api/http.js';
import type { Clock } from '../../core/clock.js';
import { formatDuration } from '../../core/duration.js';
import { BudgetExhaustedError, messageOf } from '../../core/errors.js';
import { scrub } from '../../core/secrets.js';
import { fail, ok, warn, type CheckResult } from './check.js';

export interface ProbeTarget {
  baseUrl: string;
  apiKey: string;
  /** Where the key comes from (DOCS_API_KEY, a config's apiKeyEnv), for the fixes. */
  keySource: string;
  timeoutMs: number;
  clock: Clock;
}

/** A job id in the documented format (se_ + 16 hex) that no job will have. */
export const IMPOSSIBLE_JOB_ID = 'se_0000000000000000';

const UNREACHABLE_FIX = 'check DOCS_API_BASE_URL (or the config\'s baseUrl), the network and any proxy';

export async function probeProject(t: ProbeTarget, projectId: string, budget: RequestBudget): Promise<CheckResult> {
  const subject = projectId;
  const now = t.clock.now();
  const url = new URL(`/v1/analytics/${encodeURIComponent(projectId)}/assistant`, t.baseUrl);
  url.searchParams.set('limit', '1');
  url.searchParams.set('dateFrom', new Date(now.getTime() - 3_600_000).toISOString());
  url.searchParams.set('dateTo', now.toISOString());
  let slot;
  try {
    slot = await budget.acquire();
  } catch (err) {
    if (!(err instanceof BudgetExhaustedError)) throw err;
    return fail('api', `not checked: the rate budget is used up until ${err.resumeAt.toISOString()}`,
      'wait until then (a sync running now would stop with exit 3); `docs-etl status` shows who used it', { subject });
  }
  const started = t.clock.now().getTime();
  let res: HttpResponse;
  try {
    res = await httpText(url.href, { headers: { authorization: `Bearer ${t.apiKey}`, accept: 'application/json' }, timeoutMs: t.timeoutMs });
  } catch (err) {
    return fail('api', `API unreachable at ${t.baseUrl}: ${scrub(messageOf(err), [t.apiKey])}`, UNREACHABLE_FIX, { subject, data: { unreachable: true } });
  } finally {
    await slot.release();
  }
  const ms = t.clock.now().getTime() - started;
  const data = { status: res.status, ms };
  switch (true) {
    case res.status === 200:
      return ok('api', `project found, key accepted (GET /v1/analytics/{project}/assistant: 200 in ${ms} ms)`, { subject, data });
    case res.status === 401:
      return fail('api', 'the API rejected the key (401)', `set ${t.keySource} to a valid admin key (dashboard → API keys; keys expire)`, { subject, data });
    case res.status === 403:
      return fail('api', `access denied (403): ${apiText(res, t.apiKey)}`,
        'give the key the read scope, or add this host to the organization\'s IP allowlist', { subject, data });
    case res.status === 404:
      return fail('api', `project "${projectId}" was not found (404)`, 'copy the project id from the dashboard\'s API keys page', { subject, data });
    case res.status === 429: {
      const wait = retryAfterMs(res.headers, t.clock.now()) ?? 60_000;
      await budget.block(t.clock.now().getTime() + wait);
      return fail('api', `rate limited by the API (429) for ${formatDuration(wait)}`,
        'another client spends this organization\'s 100 requests per hour, or --rate-limit is higher than the API\'s', { subject, data });
    }
    default:
      return fail('api', `unexpected answer ${res.status}: ${apiText(res, t.apiKey)}`,
        res.status >= 500 ? 'the API has a problem: try again later' : 'run with LOG_LEVEL=debug and report it', { subject, data });
  }
}

export async function probeStaticExport(t: ProbeTarget, subject: string): Promise<CheckResult> {
  const url = new URL(`/v1/static-export/jobs/${IMPOSSIBLE_JOB_ID}`, t.baseUrl);
  let res: HttpResponse;
  try {
    res = await httpText(url.href, { headers: { authorization: `Bearer ${t.apiKey}`, accept: 'application/json' }, timeoutMs: t.timeoutMs });
  } catch (err) {
    return fail('static-export', `API unreachable at ${t.baseUrl}: ${scrub(messageOf(err), [t.apiKey])}`, UNREACHABLE_FIX, { subject });
  }
  const data = { status: res.status };
  if (res.status === 404) return ok('static-export', 'the plan allows static export', { subject, data });
  if (res.status === 403) {
    return warn('static-export', 'static export is not enabled for this organization (403)',
      'only `docs-etl static-export` needs it: it requires an Enterprise plan', { subject, data });
  }
  if (res.status === 401) return fail('static-export', 'the API rejected the key (401)', `set ${t.keySource} to a valid admin key`, { subject, data });
  return warn('static-export', `could not tell (answer ${res.status}: ${apiText(res, t.apiKey)})`, undefined, { subject, data });
}

/** The API's own words, short and without the key. */
function apiText(res: HttpResponse, key: string): string {
  let text = res.text;
  try {
    const body = JSON.parse(res.text) as { error?: unknown };
    if (typeof body.error === 'string') text = body.error;
  } catch {
    // not JSON: the raw text, cut below
  }
  return scrub(text.replace(/\s+/g, ' ').trim().slice(0, 160), [key]) || '(empty body)';
}
