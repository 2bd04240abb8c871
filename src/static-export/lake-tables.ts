// The static export's tables in the Parquet lake (docs/lake.md): they have no project (a job is of
// a domain), so each is one file.
import type { LakeTable } from '../sync/pipeline/lake-table.js';

export const STATIC_EXPORT_LAKE_TABLES: readonly LakeTable[] = [
  { name: 'static_export_jobs', select: 'lake/static-export-jobs.sql', layout: { by: 'none' }, order: ['created_at', 'job_id'] },
  { name: 'site_pages', select: 'lake/site-pages.sql', layout: { by: 'none' }, order: ['job_id', 'path'] },
];
