-- The content key of what the placement model is built from (topic-index-store.ts): each table's
-- row count and the sum of its rows' hashes for the project. Any insert, delete or change of a
-- topic's terms or of the document frequencies changes it.
SELECT (SELECT count(*) || ':' || coalesce(sum(hash(topic_id, language, term, weight)), 0) FROM gap_topic_terms WHERE project_id = $project)
  || '/' || (SELECT count(*) || ':' || coalesce(sum(hash(language, term, df)), 0) FROM gap_topic_df WHERE project_id = $project) AS source_key;
