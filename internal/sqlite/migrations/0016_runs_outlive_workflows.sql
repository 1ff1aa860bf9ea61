-- Runs that outlive their workflow, and run search in creation order
-- (docs/runs.md; docs/decisions.md 244-249).
--
-- runs.workflow_id no longer refers to workflows: DELETE /api/workflows/:id
-- ?runs=keep leaves the runs of the deleted workflow in place (and
-- ?runs=delete, the default, deletes them in the same transaction). Runs
-- belong to their project instead: deleting a project deletes its runs.
-- deleted_workflows remembers the name of a workflow deleted with its runs
-- kept, for those runs.
--
-- SQLite cannot change a foreign key in place: the table is built again.
-- The rows are copied in creation order (created_at, then id), so that
-- rowid order is creation order; the store keeps it so for new runs
-- (CreateRun gives a new run a creation time after every stored run's), and
-- the word search walks the FTS5 index newest first by rowid instead of
-- sorting every match. The FTS5 index refers to rowids: it is built again
-- from the copied rows.
CREATE TABLE deleted_workflows (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    deleted_at  INTEGER NOT NULL
);

CREATE TABLE runs_rebuilt (
    id                    TEXT PRIMARY KEY,
    workflow_id           TEXT NOT NULL,
    project_id            TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    version_id            TEXT NOT NULL DEFAULT '',
    connection_id         TEXT NOT NULL DEFAULT '',
    deployment_id         TEXT NOT NULL DEFAULT '',
    workflow_name         TEXT NOT NULL DEFAULT '',
    instance_id           TEXT NOT NULL DEFAULT '',
    status                TEXT NOT NULL,
    status_detail         TEXT NOT NULL DEFAULT '',
    params                TEXT,
    output                TEXT,
    error                 TEXT NOT NULL DEFAULT '',
    steps                 TEXT,
    created_at            INTEGER NOT NULL,
    started_at            INTEGER,
    ended_at              INTEGER,
    updated_at            INTEGER NOT NULL,
    next_refresh_at       INTEGER,
    refresh_failures      INTEGER NOT NULL DEFAULT 0,
    state_version         INTEGER NOT NULL DEFAULT 0,
    refresh_claimed_until INTEGER,
    restart_of            TEXT NOT NULL DEFAULT '',
    from_step             TEXT NOT NULL DEFAULT '',
    replayed              TEXT
);
INSERT INTO runs_rebuilt (id, workflow_id, project_id, version_id, connection_id, deployment_id, workflow_name,
        instance_id, status, status_detail, params, output, error, steps, created_at, started_at, ended_at, updated_at,
        next_refresh_at, refresh_failures, state_version, refresh_claimed_until, restart_of, from_step, replayed)
    SELECT id, workflow_id, project_id, version_id, connection_id, deployment_id, workflow_name,
        instance_id, status, status_detail, params, output, error, steps, created_at, started_at, ended_at, updated_at,
        next_refresh_at, refresh_failures, state_version, refresh_claimed_until, restart_of, from_step, replayed
    FROM runs ORDER BY created_at, id;
-- Dropping runs deletes its rows first, and with them (ON DELETE CASCADE) the
-- run logs of migration 0015: they are set aside and put back.
CREATE TEMP TABLE run_logs_kept AS SELECT * FROM run_logs;
DROP TABLE runs_search;
DROP TABLE runs;
ALTER TABLE runs_rebuilt RENAME TO runs;
INSERT INTO run_logs SELECT * FROM run_logs_kept;
DROP TABLE run_logs_kept;

CREATE INDEX runs_project_created ON runs (project_id, created_at DESC, id DESC);
CREATE INDEX runs_workflow_created ON runs (workflow_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX runs_workflow_instance ON runs (workflow_id, instance_id) WHERE instance_id <> '';
CREATE INDEX runs_refresh ON runs (next_refresh_at, id) WHERE next_refresh_at IS NOT NULL;
CREATE INDEX runs_project_status_created ON runs (project_id, status, created_at DESC, id DESC);
CREATE INDEX runs_project_version_created ON runs (project_id, version_id, created_at DESC, id DESC);
CREATE INDEX runs_workflow_status_created ON runs (workflow_id, status, created_at DESC, id DESC);

CREATE VIRTUAL TABLE runs_search USING fts5(body, content='', contentless_delete=1);
INSERT INTO runs_search (rowid, body)
    SELECT rowid, coalesce(params, '') || ' ' || coalesce(output, '') || ' ' || error FROM runs;
CREATE TRIGGER runs_search_insert AFTER INSERT ON runs BEGIN
    INSERT INTO runs_search (rowid, body)
        VALUES (new.rowid, coalesce(new.params, '') || ' ' || coalesce(new.output, '') || ' ' || new.error);
END;
CREATE TRIGGER runs_search_update AFTER UPDATE OF params, output, error ON runs BEGIN
    DELETE FROM runs_search WHERE rowid = old.rowid;
    INSERT INTO runs_search (rowid, body)
        VALUES (new.rowid, coalesce(new.params, '') || ' ' || coalesce(new.output, '') || ' ' || new.error);
END;
CREATE TRIGGER runs_search_delete AFTER DELETE ON runs BEGIN
    DELETE FROM runs_search WHERE rowid = old.rowid;
END;
