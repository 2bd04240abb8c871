-- The topics of a full re-clustering (write-topics.sql, then top-pages.sql, ran first): their rows,
-- with the counts of gap_agg and gap_convs, examples of gap_ex, pages and sources of gap_pages and gap_cited.
INSERT INTO gap_topics (project_id, topic_id, language, label, questions, turns, conversations, first_asked_at, last_asked_at,
                        turns_last_7d, turns_prev_7d, trend, examples, top_pages, cited_sources, period_from, computed_at, distinctive_terms, medoid)
SELECT $project, t.topic_id, t.language, t.label, t.questions, agg.turns, c.conversations,
       agg.first_asked_at, agg.last_asked_at, agg.turns_last_7d, agg.turns_prev_7d,
       CASE WHEN agg.turns_prev_7d = 0 THEN NULL ELSE round((agg.turns_last_7d - agg.turns_prev_7d) / agg.turns_prev_7d, 4) END,
       ex.examples, coalesce(p.top_pages, []), coalesce(s.cited_sources, []),
       $from, $now, CASE WHEN t.distinctive = '' THEN [] ELSE string_split(t.distinctive, chr(31)) END, t.medoid
FROM topic_ids t JOIN gap_agg agg USING (cluster) JOIN gap_convs c USING (cluster) JOIN gap_ex ex USING (cluster)
LEFT JOIN gap_pages p ON p.topic_key = t.cluster LEFT JOIN gap_cited s ON s.topic_key = t.cluster;

DROP TABLE gap_m;
DROP TABLE gap_agg;
DROP TABLE gap_convs;
DROP TABLE gap_pages;
DROP TABLE gap_cited;
DROP TABLE gap_ex
