-- Teams (docs/decisions.md 180-186): invitations to an organization, the
-- one-time setup tokens that let the first user sign up, and organization
-- API keys (project_id NULL: the key acts in every project of its
-- organization).

CREATE TABLE invitations (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    email           TEXT NOT NULL,
    email_key       TEXT NOT NULL,
    role            TEXT NOT NULL,
    token_hash      BYTEA NOT NULL UNIQUE,
    invited_by      TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL,
    accepted_at     TIMESTAMPTZ,
    accepted_by     TEXT NOT NULL DEFAULT '',
    revoked_at      TIMESTAMPTZ
);
CREATE INDEX invitations_org_created ON invitations (organization_id, created_at DESC, id DESC);

CREATE TABLE setup_tokens (
    token_hash BYTEA PRIMARY KEY,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);

ALTER TABLE api_keys ALTER COLUMN project_id DROP NOT NULL;
