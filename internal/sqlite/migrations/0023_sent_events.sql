-- Events sent by type to a project's waiting runs (POST /api/events;
-- docs/runs.md "Events", docs/decisions.md 690-691): the type, the workflow
-- it was limited to ('' for all), the payload (JSON, at most 100 KB), the
-- runs it was sent to (a JSON array of {runId, workflowId, state, error}),
-- and the event it replayed. A project keeps its newest 1,000; deleted
-- with its project.
CREATE TABLE sent_events (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    project_id      TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    type            TEXT NOT NULL,
    workflow_id     TEXT NOT NULL DEFAULT '',
    payload         TEXT NOT NULL,
    runs            TEXT NOT NULL,
    truncated       INTEGER NOT NULL DEFAULT 0,
    replay_of       TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL
);
CREATE INDEX sent_events_project ON sent_events (project_id, created_at, id);
