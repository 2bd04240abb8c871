-- A topic's row from its members: counts, first and last asked, the last 7 days against the 7
-- before ($week, $prev_week), examples, starting pages and the sources cited when it failed.
-- One aggregate per statement, by cluster number (not text), so each fits the writer's memory.
CREATE OR REPLACE TEMP TABLE gap_m AS
SELECT g.id, g.occurred_at, g.page_path, a.cluster FROM gap_turns g JOIN topic_keys a USING (qhash);

CREATE OR REPLACE TEMP TABLE gap_agg AS
SELECT cluster, count(*) AS turns, min(occurred_at) AS first_asked_at, max(occurred_at) AS last_asked_at,
       count(*) FILTER (WHERE occurred_at >= $week) AS turns_last_7d,
       count(*) FILTER (WHERE occurred_at >= $prev_week AND occurred_at < $week) AS turns_prev_7d
FROM gap_m GROUP BY cluster;

CREATE OR REPLACE TEMP TABLE gap_convs AS
SELECT cluster, count(*) AS conversations FROM (SELECT DISTINCT cluster, id FROM gap_m) GROUP BY cluster;

-- Pages and sources: each topic's first three by a window (QUALIFY) before the list, not a list of
-- every page or source per topic (a list aggregate is held whole in memory; refresh-topics.sql too).
CREATE OR REPLACE TEMP TABLE gap_pages AS
SELECT cluster, list(page_path ORDER BY n DESC, page_path) AS top_pages
FROM (
  SELECT cluster, page_path, count(*) AS n FROM gap_m WHERE page_path IS NOT NULL GROUP BY cluster, page_path
  QUALIFY row_number() OVER (PARTITION BY cluster ORDER BY n DESC, page_path) <= 3
)
GROUP BY cluster;

CREATE OR REPLACE TEMP TABLE gap_cited AS
SELECT cluster, list(url ORDER BY n DESC, url) AS cited_sources
FROM (
  SELECT m.cluster, s.url, count(*) AS n
  FROM gap_m m JOIN sources s ON s.project_id = $project AND s.conversation_id = m.id AND s.occurred_at = m.occurred_at
  GROUP BY m.cluster, s.url
  QUALIFY row_number() OVER (PARTITION BY m.cluster ORDER BY n DESC, s.url) <= 3
)
GROUP BY cluster;

CREATE OR REPLACE TEMP TABLE gap_ex AS
SELECT cluster, list(example ORDER BY n DESC, question)[1:3] AS examples
FROM (SELECT cluster, example, n, question, row_number() OVER (PARTITION BY cluster ORDER BY n DESC, question) AS k FROM topic_assign)
WHERE k <= 3
GROUP BY cluster;

INSERT INTO gap_topics (project_id, topic_id, language, label, questions, turns, conversations, first_asked_at, last_asked_at,
                        turns_last_7d, turns_prev_7d, trend, examples, top_pages, cited_sources, period_from, computed_at, distinctive_terms, medoid)
SELECT $project, t.topic_id, t.language, t.label, t.questions, agg.turns, c.conversations,
       agg.first_asked_at, agg.last_asked_at, agg.turns_last_7d, agg.turns_prev_7d,
       CASE WHEN agg.turns_prev_7d = 0 THEN NULL ELSE round((agg.turns_last_7d - agg.turns_prev_7d) / agg.turns_prev_7d, 4) END,
       ex.examples, coalesce(p.top_pages, []), coalesce(s.cited_sources, []),
       $from, $now, CASE WHEN t.distinctive = '' THEN [] ELSE string_split(t.distinctive, chr(31)) END, t.medoid
FROM topic_ids t JOIN gap_agg agg USING (cluster) JOIN gap_convs c USING (cluster) JOIN gap_ex ex USING (cluster)
LEFT JOIN gap_pages p USING (cluster) LEFT JOIN gap_cited s USING (cluster);

DROP TABLE gap_m;
DROP TABLE gap_agg;
DROP TABLE gap_convs;
DROP TABLE gap_pages;
DROP TABLE gap_cited;
DROP TABLE gap_ex
