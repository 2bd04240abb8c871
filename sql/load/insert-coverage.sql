INSERT INTO coverage (project_id, pipeline, range_from, range_to, first_read_at, read_at, reads, rows, settled)
VALUES ($project_id, $pipeline, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), CAST($first_read_at AS TIMESTAMPTZ),
        CAST($read_at AS TIMESTAMPTZ), $reads, $rows, $settled);
