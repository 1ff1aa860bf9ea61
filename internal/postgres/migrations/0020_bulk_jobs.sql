-- Bulk actions on runs (POST /api/runs/bulk; docs/runs.md "Bulk actions",
-- docs/decisions.md 571-573): the job, the ids of the runs its filter
-- matched (a JSON array, acted on in order from next_index), its counts and
-- failures (a JSON array of {runId, error}, the first 100), and the lease of
-- the replica working on it, so that another replica or a restarted one sees
-- its state and carries it on. Deleted with its project.
CREATE TABLE bulk_jobs (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL,
    project_id      TEXT COLLATE "C" NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    action          TEXT NOT NULL,
    filter          TEXT NOT NULL,
    from_step       TEXT NOT NULL DEFAULT '',
    version         TEXT NOT NULL DEFAULT '',
    state           TEXT NOT NULL,
    matched         INTEGER NOT NULL,
    done            INTEGER NOT NULL DEFAULT 0,
    failed          TEXT NOT NULL DEFAULT '[]',
    failed_count    INTEGER NOT NULL DEFAULT 0,
    run_ids         TEXT NOT NULL,
    next_index      INTEGER NOT NULL DEFAULT 0,
    actor_type      TEXT NOT NULL DEFAULT '',
    actor_id        TEXT NOT NULL DEFAULT '',
    request_id      TEXT NOT NULL DEFAULT '',
    lease_until     TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    ended_at        TIMESTAMPTZ
);
CREATE INDEX bulk_jobs_state ON bulk_jobs (state, lease_until);

-- What an audit entry adds to its action (run.bulk: the filter and the counts),
-- JSON; '' for the entries without.
ALTER TABLE audit_log ADD COLUMN details TEXT NOT NULL DEFAULT '';

-- A replay (POST …/runs/:runId/replay; docs/runs.md "Replay with changes"):
-- the run it replayed, and 1 when it ran with other params than that run's.
ALTER TABLE runs ADD COLUMN replay_of TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN params_changed INTEGER NOT NULL DEFAULT 0;
