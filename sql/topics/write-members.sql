INSERT INTO gap_topic_members
SELECT $project, t.topic_id, g.id, g.occurred_at
FROM gap_turns g JOIN topic_keys a USING (qhash) JOIN topic_ids t USING (cluster);
