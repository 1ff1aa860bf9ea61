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

-- Words of a run's params, output and error, for ?q=, in the simple
-- configuration (no stemming, no stop words), with a GIN index.
ALTER TABLE runs ADD COLUMN search tsvector GENERATED ALWAYS AS (
    to_tsvector('simple', coalesce(params, '') || ' ' || coalesce(output, '') || ' ' || error)) STORED;
CREATE INDEX runs_search ON runs USING GIN (search);

-- Run retention per organization, in days (docs/runs.md): final runs created
-- longer ago are deleted by the pruning job and `edgeflow admin prune-runs`.
ALTER TABLE organizations ADD COLUMN run_retention_days INTEGER NOT NULL DEFAULT 90;
