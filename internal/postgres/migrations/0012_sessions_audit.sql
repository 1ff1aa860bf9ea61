-- Sessions record where they were started and when they were last used, so
-- that a user can list and revoke them (docs/security.md, "Sessions").
-- last_seen_at is written at most once a minute per session (decision 191).
ALTER TABLE sessions ADD COLUMN last_seen_at TIMESTAMPTZ;
ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN ip TEXT NOT NULL DEFAULT '';
CREATE INDEX sessions_user_created ON sessions (user_id, created_at, id);

-- The audit log: one row per state-changing request, allowed or refused
-- (docs/security.md, "The audit log"). No foreign keys: an entry outlives the
-- records it names until the retention sweeper deletes it. Request bodies are
-- never stored.
CREATE TABLE audit_log (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT NOT NULL DEFAULT '',
    project_id      TEXT NOT NULL DEFAULT '',
    actor_type      TEXT NOT NULL DEFAULT '',
    actor_id        TEXT NOT NULL DEFAULT '',
    action          TEXT NOT NULL,
    target_type     TEXT NOT NULL DEFAULT '',
    target_id       TEXT NOT NULL DEFAULT '',
    outcome         INTEGER NOT NULL,
    request_id      TEXT NOT NULL DEFAULT '',
    at              TIMESTAMPTZ NOT NULL
);
CREATE INDEX audit_log_org_at ON audit_log (organization_id, at, id);
CREATE INDEX audit_log_at ON audit_log (at);
