-- Runs that outlive their workflow (docs/runs.md; docs/decisions.md 244-249).
--
-- runs.workflow_id no longer refers to workflows: DELETE /api/workflows/:id
-- ?runs=keep leaves the runs of the deleted workflow in place (and
-- ?runs=delete, the default, deletes them in the same transaction). Runs
-- belong to their project instead: deleting a project deletes its runs.
-- deleted_workflows remembers the name of a workflow deleted with its runs
-- kept, for those runs.
CREATE TABLE deleted_workflows (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    deleted_at  TIMESTAMPTZ NOT NULL
);

ALTER TABLE runs DROP CONSTRAINT runs_workflow_id_fkey;
ALTER TABLE runs ADD CONSTRAINT runs_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;
