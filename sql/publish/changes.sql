-- What the read surface needs to find the days a run touched without scanning the history: every
-- merge stamps the turns it read with last_seen_at = its time (and rewrites their sources), so the
-- turns touched since the last publish are those with last_seen_at >= that publish's watermark.
-- Returns the new watermark (max last_seen_at), the migrations applied (a migration may rewrite
-- rows: then every day is recomputed) and the occurred_at span of the turns touched since $since
-- (NULL: none). Reads two timestamp columns; no hashing.
SELECT
  strftime(timezone('UTC', max(last_seen_at)), '%Y-%m-%dT%H:%M:%S.%fZ')                            AS watermark,
  (SELECT count(*) FROM schema_migrations)                                                         AS migrations,
  strftime(timezone('UTC', min(occurred_at) FILTER (WHERE last_seen_at >= CAST($since AS TIMESTAMPTZ))), '%Y-%m-%d') AS touched_from,
  strftime(timezone('UTC', max(occurred_at) FILTER (WHERE last_seen_at >= CAST($since AS TIMESTAMPTZ))), '%Y-%m-%d') AS touched_to
FROM conversations;
