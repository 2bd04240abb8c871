-- The lake columns of coverage, in order (docs/lake.md).
SELECT project_id, pipeline, range_from, range_to, first_read_at, read_at, reads, rows, settled
FROM coverage
