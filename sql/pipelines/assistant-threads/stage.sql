-- Stage a batch of landed threads (view `landed`, one record per thread; see docs/pipelines.md):
-- one row per message, thread_id the key the thread was read for. Within the batch the latest read
-- of a thread wins (its own rule, not the generated per-key one: pipelines/assistant-threads.ts says why).
-- The contract's timestamps always cast, so nothing is rejected here.
CREATE OR REPLACE TEMP TABLE stage_all AS
WITH latest AS (
  SELECT *, coalesce(window_key, r.threadId) AS thread_id
  FROM landed
  QUALIFY row_number() OVER (PARTITION BY project_id, coalesce(window_key, r.threadId) ORDER BY seq DESC, ord DESC) = 1
)
SELECT project_id, run_id, window_id, thread_id,
       m.id                                    AS message_id,
       CAST(pos AS INTEGER)                    AS position,
       m.role                                  AS role,
       m.content                               AS content,
       CAST(m.createdAt AS TIMESTAMPTZ)        AS created_at,
       CAST(thread_created AS TIMESTAMPTZ)     AS thread_created_at,
       extra
FROM (
  SELECT project_id, run_id, window_id, thread_id, extra, r.createdAt AS thread_created,
         unnest(r.messages) AS m, generate_subscripts(r.messages, 1) AS pos
  FROM latest
);

CREATE OR REPLACE TEMP VIEW stage AS SELECT * FROM stage_all;
CREATE OR REPLACE TEMP VIEW stage_rejects AS
SELECT NULL::VARCHAR AS project_id, NULL::VARCHAR AS run_id, NULL::VARCHAR AS error, NULL::VARCHAR AS raw WHERE false;
