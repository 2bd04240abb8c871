// One line of `docs-etl doctor`: what was checked, how it went, and how to fix it when it did not.
// `fail` makes the exit code 1; `warn` is worth knowing but not wrong (e.g. static export off);
// `skip` means an earlier failure made the check pointless.

export type CheckStatus = 'ok' | 'fail' | 'warn' | 'skip';

export interface CheckResult {
  /** The kind of check: config, key, api, static-export, budget, warehouse, disk, versions, node. */
  check: string;
  /** What it was about (a project, an organization, a path), when there are several. */
  subject?: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
  /** Machine-readable facts for --json (a PID, bytes free, requests used…). */
  data?: Record<string, unknown>;
}

type Fields = Omit<CheckResult, 'status' | 'check' | 'detail'>;

export const ok = (check: string, detail: string, more: Fields = {}): CheckResult => ({ check, status: 'ok', detail, ...more });
export const fail = (check: string, detail: string, fix: string, more: Fields = {}): CheckResult => ({ check, status: 'fail', detail, fix, ...more });
export const warn = (check: string, detail: string, fix: string | undefined, more: Fields = {}): CheckResult =>
  ({ check, status: 'warn', detail, ...(fix ? { fix } : {}), ...more });
export const skip = (check: string, detail: string, more: Fields = {}): CheckResult => ({ check, status: 'skip', detail, ...more });
