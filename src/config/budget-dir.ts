// Where the organizations' request logs (the local budget) live. One budget per organization per
// machine user: every warehouse, config and working directory of that user shares it, so a second
// warehouse of the same organization never starts a fresh log the API then contradicts with 429s.
// Order: DOCS_ETL_BUDGET_DIR (wins) > config `budgetDir` > $XDG_STATE_HOME/docs-etl/budget >
// ~/.local/state/docs-etl/budget. Older versions kept it at `<warehouse dir>/budget` (the legacy
// folder): commands that read the budget migrate it (see migrate-legacy-budget.ts).
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

export type BudgetDirSource = 'DOCS_ETL_BUDGET_DIR' | 'config budgetDir' | 'default';

export interface BudgetDirChoice {
  dir: string;
  source: BudgetDirSource;
  /** The folder older versions used for this warehouse; set only when the default is in use. */
  legacyDir: string | null;
}

/**
 * The per-user state folder's budget: $XDG_STATE_HOME (when absolute, per the XDG spec), else
 * ~/.local/state. A command's own environment (`env`) that leaves them out (an embedding caller's
 * reduced copy) falls back to the process's: the folder belongs to the user running the process.
 */
export function defaultBudgetDir(env: NodeJS.ProcessEnv): string {
  const xdg = (env.XDG_STATE_HOME ?? process.env.XDG_STATE_HOME)?.trim();
  const state = xdg && isAbsolute(xdg) ? xdg : join(env.HOME?.trim() || homedir(), '.local', 'state');
  return join(state, 'docs-etl', 'budget');
}

/** The budget folder older versions used: beside the warehouse file. */
export function legacyBudgetDir(warehouse: string): string {
  return join(dirname(warehouse), 'budget');
}

/** The budget folder a command uses (the same for sync, status, doctor, schedule). */
export function chooseBudgetDir(env: NodeJS.ProcessEnv, configBudgetDir: string | undefined, warehouse: string): BudgetDirChoice {
  const fromEnv = env.DOCS_ETL_BUDGET_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return { dir: fromEnv, source: 'DOCS_ETL_BUDGET_DIR', legacyDir: null };
  if (configBudgetDir) return { dir: configBudgetDir, source: 'config budgetDir', legacyDir: null };
  const dir = defaultBudgetDir(env);
  const legacy = legacyBudgetDir(warehouse);
  return { dir, source: 'default', legacyDir: legacy === dir ? null : legacy };
}
