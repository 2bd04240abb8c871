-- topic_assign keyed like gap_turns (the hash of the normalized question).
CREATE OR REPLACE TEMP TABLE topic_keys AS SELECT hash(question) AS qhash, cluster FROM topic_assign;
