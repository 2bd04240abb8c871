// Chooses where the organizations' request logs live: Redis when a budget URL is configured
// (DOCS_ETL_BUDGET_URL, config `budget`), shared by every host that uses it; the local budget
// folder otherwise (as before). A configured Redis that fails is an error, never the folder.
import type { Clock } from '../core/clock.js';
import type { BudgetStore } from './budget-store.js';
import { FileBudgetStore } from './file-budget-store.js';
import { migrateLegacyBudget } from './migrate-legacy-budget.js';
import { RequestLog } from './request-log.js';

export interface BudgetBackend {
  /** 'redis' or 'file', and where (the Redis URL with its password redacted, or the folder). */
  readonly kind: 'redis' | 'file';
  readonly where: string;
  /** The store of one organization (by fingerprint). `onDamaged` hears of a damaged log file. */
  store(organization: string, onDamaged?: (file: string, reason: string) => void): BudgetStore;
  close(): Promise<void>;
}

export interface BudgetLocation {
  /** A redis:// URL; null or absent: the local folder. */
  url?: string | null;
  /** Where the URL came from, for messages (DOCS_ETL_BUDGET_URL, config budget). */
  source?: string;
  dir: string;
  /**
   * The folder older versions used (`<warehouse dir>/budget`), when `dir` is the per-user default:
   * its logs are merged into `dir` before use, and `onWarning` hears one line saying so.
   */
  legacyDir?: string | null;
  onWarning?: (message: string) => void;
}

export async function openBudgetBackend(at: BudgetLocation, clock: Clock): Promise<BudgetBackend> {
  if (at.url) {
    // Loaded only when configured: a sync without Redis never loads the client.
    const { RedisBudget } = await import('./redis-budget-store.js');
    const redis = await RedisBudget.connect(at.url, at.source ?? 'DOCS_ETL_BUDGET_URL');
    return { kind: 'redis', where: redis.where, store: (org) => redis.store(org, clock), close: () => redis.close() };
  }
  if (at.legacyDir) {
    const moved = await migrateLegacyBudget(at.legacyDir, at.dir);
    if (moved) {
      at.onWarning?.(`the request log moved from ${at.legacyDir} to ${at.dir} (one budget per organization for this user; ` +
        `${moved.added} request(s) of ${moved.organizations.length} organization(s) carried over): set DOCS_ETL_BUDGET_DIR or the config's budgetDir to choose another folder`);
    }
  }
  return {
    kind: 'file',
    where: at.dir,
    store: (org, onDamaged) => new FileBudgetStore(new RequestLog(at.dir, org, onDamaged), clock),
    close: async () => {},
  };
}
