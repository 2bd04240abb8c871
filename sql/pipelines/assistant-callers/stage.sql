-- Stage a batch of landed GET /assistant/caller-stats answers: the body is one record per day. The
-- merge keeps the latest read of a day (the pipeline's key and tie-break: src/sync/load/one-read-per-key.ts).
CREATE OR REPLACE TEMP TABLE stage_all AS
SELECT l.project_id, l.run_id, l.window_id, l.window_from, l.seq, l.ord,
       CAST(timezone(coalesce(p.timezone, 'UTC'), l.window_from) AS DATE) AS day,
       CAST(r.web AS BIGINT) AS web, CAST(r.api AS BIGINT) AS api, CAST(r.other AS BIGINT) AS other, CAST(r.total AS BIGINT) AS total
FROM landed l LEFT JOIN projects p ON p.project_id = l.project_id;

CREATE OR REPLACE TEMP TABLE batch_days AS SELECT DISTINCT project_id, window_id, day FROM stage_all;
CREATE OR REPLACE TEMP VIEW stage AS SELECT * EXCLUDE (seq, ord) FROM stage_all;
CREATE OR REPLACE TEMP VIEW stage_rejects AS
SELECT NULL::VARCHAR AS project_id, NULL::VARCHAR AS run_id, NULL::VARCHAR AS error, NULL::VARCHAR AS raw WHERE false;
