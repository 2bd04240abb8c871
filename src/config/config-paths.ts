// Paths in a config file (warehouse, readPath, landingDir, budgetDir, metricsFile) are relative to the file's
// folder, whichever directory a command (a cron job, a service) runs from. Older versions read
// them against the working directory: where that gave a different, existing file or folder and the
// config-relative one does not exist yet, the old one is still used (nothing is lost or started
// afresh) and a warning says how to settle it; where both exist the config-relative one is used,
// with a warning naming the one no longer used.
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';

export const CONFIG_PATH_FIELDS = ['warehouse', 'readPath', 'landingDir', 'budgetDir', 'metricsFile'] as const;
type PathFields = Partial<Record<(typeof CONFIG_PATH_FIELDS)[number], string>>;

export function resolveConfigPaths<T extends PathFields>(file: T, configPath: string, cwd: string = process.cwd()): { file: T; warnings: string[] } {
  const out: T = { ...file };
  const warnings: string[] = [];
  const folder = dirname(resolve(cwd, configPath));
  for (const field of CONFIG_PATH_FIELDS) {
    const value = file[field];
    if (value === undefined || isAbsolute(value)) continue;
    const relative = resolve(folder, value);
    const old = resolve(cwd, value);
    if (relative === old || !existsSync(old)) {
      out[field] = relative;
      continue;
    }
    if (existsSync(relative)) {
      out[field] = relative;
      warnings.push(`config file ${configPath}: ${field} "${value}" is relative to the config file's folder: using ${relative}, not ${old} (the working directory's; no longer used)`);
    } else {
      out[field] = old;
      warnings.push(`config file ${configPath}: ${field} "${value}" is relative to the config file's folder (${relative}), but it exists only at ${old}: still using that one; move it there or give an absolute path`);
    }
  }
  return { file: out, warnings };
}
