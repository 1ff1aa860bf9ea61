-- The logs of a run (GET /api/workflows/:id/runs/:runId/logs; docs/runs.md,
-- docs/decisions.md 240): its console lines and exceptions as edgeflow last
-- read them from the local edge, a JSON array of {timestamp, level,
-- message}, kept with the run so that they outlive the edge's ring and the
-- provider's instance. dropped counts the oldest lines left out to keep
-- within the limits. Deleted with the run.
CREATE TABLE run_logs (
    run_id     TEXT COLLATE "C" PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    lines      TEXT NOT NULL,
    dropped    INTEGER NOT NULL DEFAULT 0,
    updated_at TIMESTAMPTZ NOT NULL
);
