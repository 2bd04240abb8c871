// Project ids go into API paths (/v1/analytics/{projectId}/…) and lake directory names. `.` and `..`
// would be resolved away by URL normalization (the request would reach another path), and `/` or a
// control character cannot be a real id: such ids are rejected up front (exit 2), never sent.
import { UsageError } from './errors.js';

/** Why `id` cannot be a project id, or null when it can. */
export function projectIdProblem(id: string): string | null {
  if (!id.trim()) return 'it is empty';
  if (id === '.' || id === '..') return 'it is a path segment, not an id';
  if (id.includes('/') || id.includes('\\')) return 'it contains a slash';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(id)) return 'it contains a control character';
  if (id !== id.trim()) return 'it starts or ends with whitespace';
  return null;
}

/** Throws UsageError naming the source (e.g. "--project", "DOCS_PROJECT_ID") of a bad id. */
export function checkProjectId(id: string, source: string): string {
  const problem = projectIdProblem(id);
  if (problem) throw new UsageError(`invalid project id ${JSON.stringify(id)} (${source}): ${problem}; copy the id from the dashboard's API keys page`);
  return id;
}
