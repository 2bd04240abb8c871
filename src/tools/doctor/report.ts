// How the doctor's findings are printed: one line per check for people, one JSON object for machines.
import type { CheckResult, CheckStatus } from './check.js';
import type { DoctorReport } from './run-doctor.js';

const SYMBOL: Record<CheckStatus, string> = { ok: '✓', fail: '✗', warn: '!', skip: '-' };

/** `✗ api acme: project "acme" was not found (404) → fix: copy the project id from …` */
export function formatCheck(c: CheckResult): string {
  const what = c.subject ? `${c.check} ${c.subject}` : c.check;
  return `${SYMBOL[c.status]} ${what}: ${c.detail}${c.fix && c.status !== 'ok' ? ` → fix: ${c.fix}` : ''}`;
}

export function formatReport(r: DoctorReport): string {
  const failed = r.checks.filter((c) => c.status === 'fail').length;
  const warned = r.checks.filter((c) => c.status === 'warn').length;
  const verdict = failed ? `${failed} problem(s) to fix` : `all good${warned ? ` (${warned} warning(s))` : ''}`;
  return `${r.checks.map(formatCheck).join('\n')}\n\ndoctor: ${verdict}\n`;
}

export function reportJson(r: DoctorReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}
