-- What the read surface needs to find the days a run touched without scanning the history, for a
-- table whose lake declaration names a stamp column (e.g. conversations' last_seen_at): every merge
-- stamps the rows it reads with its time, so the rows touched since the last publish are those
-- stamped at or after that publish's watermark. Returns the largest stamp among them (the new
-- watermark; NULL when none was stamped since: the caller keeps its watermark) and the span of
-- their days (NULL: none). The table, its stamp column (quoted) and the day expression (the
-- placeholders in double braces) come from the declaration.
-- Only those rows are read: the filter on the stamp is pushed into the scan, which skips every row
-- group whose zone map lies before $since, so a steady run reads the row groups its merges
-- stamped, not the history (4M turns: 2-7 ms against 11-58 ms for the whole column). $since NULL
-- (no watermark yet, or a full recompute): every row, and the true largest stamp.
SELECT
  strftime(timezone('UTC', max({{stamp}})), '%Y-%m-%dT%H:%M:%S.%fZ')  AS watermark,
  strftime(min({{day}}), '%Y-%m-%d')                                   AS touched_from,
  strftime(max({{day}}), '%Y-%m-%d')                                   AS touched_to
FROM {{table}} AS t
WHERE {{stamp}} >= coalesce(CAST($since AS TIMESTAMPTZ), '-infinity'::TIMESTAMPTZ);
