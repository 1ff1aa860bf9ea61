-- Run events and outbound webhooks (docs/runs.md; docs/decisions.md 230-236).
-- events holds every run state change and deploy result for a short time
-- (pruned after an hour): each replica's run streams read it in seq order.
-- created_at is microseconds since the epoch.
CREATE TABLE events (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    id         TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL,
    type       TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX events_created ON events (created_at);

-- A project's webhook endpoints; events is a JSON array of the subscribed
-- types ('[]' = all), secret the sealed signing secret.
CREATE TABLE webhooks (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    project_id      TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    url             TEXT NOT NULL,
    events          TEXT NOT NULL,
    secret          TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX webhooks_project_created ON webhooks (project_id, created_at DESC, id DESC);

-- One message to one webhook: the queue of the dispatchers. claimed_until
-- is set by the dispatcher that took the delivery for an attempt; others
-- leave it alone until it passes or the attempt is written.
CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    webhook_id      TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    project_id      TEXT NOT NULL,
    message_id      TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    payload         TEXT NOT NULL,
    status          TEXT NOT NULL,
    response_status INTEGER NOT NULL DEFAULT 0,
    attempts        TEXT NOT NULL DEFAULT '[]',
    next_attempt_at INTEGER,
    claimed_until   INTEGER,
    redelivery_of   TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_webhook_created ON webhook_deliveries (webhook_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE next_attempt_at IS NOT NULL;
