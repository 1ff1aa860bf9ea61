-- The pinned outputs of a workflow (GET/PUT /api/workflows/:id/pinned-outputs;
-- docs/studio.md, docs/decisions.md 687): a JSON object of node id -> the
-- output a test run answers for that node instead of running it. Kept beside
-- the workflow's versions, never in an IR, so deployments never see them.
-- Deleted with the workflow.
CREATE TABLE pinned_outputs (
    workflow_id TEXT PRIMARY KEY REFERENCES workflows(id) ON DELETE CASCADE,
    outputs     TEXT NOT NULL,
    updated_by  TEXT NOT NULL DEFAULT '',
    updated_at  INTEGER NOT NULL
);
