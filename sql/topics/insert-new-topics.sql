-- The new topics (refresh-topics.sql, then top-pages.sql, ran first): their rows, with the counts of
-- gap_agg, examples of gap_ex, pages and sources of gap_pages and gap_cited.
INSERT INTO gap_topics (project_id, topic_id, language, label, questions, turns, conversations, first_asked_at, last_asked_at,
                        turns_last_7d, turns_prev_7d, trend, examples, top_pages, cited_sources, period_from, computed_at, distinctive_terms, medoid)
SELECT $project, t.topic_id, t.language, t.label, coalesce(q.questions, 0), a.turns, a.conversations, a.first_asked_at, a.last_asked_at,
       a.turns_last_7d, a.turns_prev_7d,
       CASE WHEN a.turns_prev_7d = 0 THEN NULL ELSE round((a.turns_last_7d - a.turns_prev_7d) / a.turns_prev_7d, 4) END,
       coalesce(ex.examples, []), coalesce(p.top_pages, []), coalesce(s.cited_sources, []), $from, $now, t.distinctive_terms, t.medoid
FROM new_topics t JOIN gap_agg a USING (topic_id) LEFT JOIN gap_qn q USING (topic_id)
LEFT JOIN gap_ex ex USING (topic_id) LEFT JOIN gap_pages p ON p.topic_key = t.topic_id LEFT JOIN gap_cited s ON s.topic_key = t.topic_id;

DROP TABLE gap_m;
DROP TABLE gap_ex;
DROP TABLE gap_pages;
DROP TABLE gap_cited;
DROP TABLE gap_agg;
DROP TABLE gap_qn
