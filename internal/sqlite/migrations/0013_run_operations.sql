-- Runs you can operate (docs/runs.md; docs/decisions.md 210-217).
-- restart_of and from_step record where a restarted run came from; replayed
-- holds, as a JSON array, the steps it took from the original run without
-- executing them (with their full outputs).
ALTER TABLE runs ADD COLUMN restart_of TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN from_step TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN replayed TEXT;

-- Finding runs (GET /api/runs): newest first within a project, narrowed by
-- status, version or workflow and status, each served by an index that
-- also gives the order.
CREATE INDEX runs_project_status_created ON runs (project_id, status, created_at DESC, id DESC);
CREATE INDEX runs_project_version_created ON runs (project_id, version_id, created_at DESC, id DESC);
CREATE INDEX runs_workflow_status_created ON runs (workflow_id, status, created_at DESC, id DESC);

-- Words of a run's params, output and error, for ?q=. The index holds no
-- copy of the text (contentless); its rowid is the run's rowid, kept in step
-- by the triggers below. The store never runs VACUUM, which could renumber
-- rowids of a table without an INTEGER PRIMARY KEY.
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

-- Run retention per organization, in days (docs/runs.md): final runs created
-- longer ago are deleted by the pruning job and `edgeflow admin prune-runs`.
ALTER TABLE organizations ADD COLUMN run_retention_days INTEGER NOT NULL DEFAULT 90;
