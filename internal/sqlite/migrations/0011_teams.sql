-- Teams (docs/decisions.md 180-186): invitations to an organization, the
-- one-time setup tokens that let the first user sign up, and organization
-- API keys (project_id NULL: the key acts in every project of its
-- organization).

CREATE TABLE invitations (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    email           TEXT NOT NULL,
    email_key       TEXT NOT NULL,
    role            TEXT NOT NULL,
    token_hash      BLOB NOT NULL UNIQUE,
    invited_by      TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,
    accepted_at     INTEGER,
    accepted_by     TEXT NOT NULL DEFAULT '',
    revoked_at      INTEGER
);
CREATE INDEX invitations_org_created ON invitations (organization_id, created_at DESC, id DESC);

CREATE TABLE setup_tokens (
    token_hash BLOB PRIMARY KEY,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);

CREATE TABLE api_keys_0011 (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    project_id      TEXT REFERENCES projects(id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name            TEXT NOT NULL DEFAULT '',
    prefix          TEXT NOT NULL,
    hash            BLOB NOT NULL UNIQUE,
    scopes          TEXT NOT NULL,
    expires_at      INTEGER,
    last_used_at    INTEGER,
    revoked_at      INTEGER,
    created_at      INTEGER NOT NULL
);
INSERT INTO api_keys_0011 SELECT id, organization_id, project_id, user_id, name, prefix, hash, scopes,
    expires_at, last_used_at, revoked_at, created_at FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE api_keys_0011 RENAME TO api_keys;
CREATE INDEX api_keys_org_created ON api_keys (organization_id, created_at DESC, id DESC);
