-- Gap topics ranked within each project: most unanswered turns first (then most conversations),
-- with `rank` from 1. Topics are recomputed after each sync (docs/topics.md).
CREATE OR REPLACE VIEW gap_topics_top AS
SELECT CAST(row_number() OVER (PARTITION BY project_id ORDER BY turns DESC, conversations DESC, topic_id) AS INTEGER) AS rank, *
FROM gap_topics;
