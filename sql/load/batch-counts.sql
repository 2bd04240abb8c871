-- Per run of the batch: pages, requests, rows merged and records quarantined (seen on its pages).
SELECT f.run_id,
       count(*)                                                   AS pages,
       sum(f.requests)                                            AS requests,
       coalesce(any_value(s.rows), 0)                             AS rows,
       sum(len(f.invalid)) + coalesce(any_value(r.rejected), 0)   AS quarantined
FROM landed_files f
LEFT JOIN (SELECT run_id, count(*) AS rows FROM stage GROUP BY run_id) s ON s.run_id = f.run_id
LEFT JOIN (SELECT run_id, count(*) AS rejected FROM stage_rejects GROUP BY run_id) r ON r.run_id = f.run_id
GROUP BY f.run_id;
