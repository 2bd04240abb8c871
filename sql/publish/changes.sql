-- What the read surface needs to find the days a run touched without scanning the history: every
-- merge stamps the turns it read with last_seen_at = its time (and rewrites their sources), so the
-- turns touched since the last publish are those with last_seen_at >= that publish's watermark.
-- Returns the largest last_seen_at among them (the new watermark; NULL when none was stamped
-- since: the caller keeps its watermark), the migrations applied (a migration may rewrite rows:
-- then every day is recomputed) and the occurred_at span of those turns (NULL: none).
-- Only those turns are read: the filter on last_seen_at is pushed into the scan, which skips every
-- row group whose zone map lies before $since, so a steady run reads the row groups its merges
-- stamped, not the history (4M turns: 2-7 ms against 11-58 ms for the whole column). $since NULL
-- (no watermark yet, or a full recompute): every turn, and the true largest last_seen_at.
SELECT
  strftime(timezone('UTC', max(last_seen_at)), '%Y-%m-%dT%H:%M:%S.%fZ')  AS watermark,
  (SELECT count(*) FROM schema_migrations)                               AS migrations,
  strftime(timezone('UTC', min(occurred_at)), '%Y-%m-%d')                AS touched_from,
  strftime(timezone('UTC', max(occurred_at)), '%Y-%m-%d')                AS touched_to
FROM conversations
WHERE last_seen_at >= coalesce(CAST($since AS TIMESTAMPTZ), '-infinity'::TIMESTAMPTZ);
