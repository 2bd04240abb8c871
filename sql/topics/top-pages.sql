-- A topic's starting pages and cited sources, its first three of each, most counted first (ties by
-- text), over the caller's temp view gap_mk (topic_key, id, occurred_at, page_path): one row per
-- member turn. Shared by the full step (write-topics.sql: the key is the cluster number) and the
-- placement of new topics (refresh-topics.sql: the new topic's id); the callers' inserts read
-- gap_pages and gap_cited. The first three by a window (QUALIFY) before the list, not a list of
-- every page or source per topic: a list aggregate is held whole in memory, which a full
-- re-clustering's tail did not fit in the step pool (docs/performance.md, gap topics).
CREATE OR REPLACE TEMP TABLE gap_pages AS
SELECT topic_key, list(page_path ORDER BY n DESC, page_path) AS top_pages
FROM (
  SELECT topic_key, page_path, count(*) AS n FROM gap_mk WHERE page_path IS NOT NULL GROUP BY topic_key, page_path
  QUALIFY row_number() OVER (PARTITION BY topic_key ORDER BY n DESC, page_path) <= 3
)
GROUP BY topic_key;

CREATE OR REPLACE TEMP TABLE gap_cited AS
SELECT topic_key, list(url ORDER BY n DESC, url) AS cited_sources
FROM (
  SELECT m.topic_key, s.url, count(*) AS n
  FROM gap_mk m JOIN sources s ON s.project_id = $project AND s.conversation_id = m.id AND s.occurred_at = m.occurred_at
  GROUP BY m.topic_key, s.url
  QUALIFY row_number() OVER (PARTITION BY m.topic_key ORDER BY n DESC, s.url) <= 3
)
GROUP BY topic_key;

DROP VIEW gap_mk
