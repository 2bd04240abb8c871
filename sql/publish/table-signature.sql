-- The content signature of one whole warehouse table the read surface keeps as one Parquet file
-- (src/sync/publish/surface-native.ts): its row count and the sum of every row's hash (order-free, so a
-- table rewritten in another order with the same rows keeps its file). Unchanged: the publish
-- reuses the file; changed: it writes a new one. {{table}} is an identifier of the warehouse's own
-- table list, quoted by the caller.
SELECT count(*)::BIGINT AS n, coalesce(sum(hash(t)), 0)::VARCHAR AS h
FROM {{table}} AS t;
