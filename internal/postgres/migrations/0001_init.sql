-- Initial schema. Times are TIMESTAMPTZ (microseconds); JSON documents are
-- TEXT so that they round-trip byte for byte; identifiers and the text sort
-- keys of lists are TEXT COLLATE "C" so that lists order as on SQLite.

CREATE TABLE users (
    id            TEXT COLLATE "C" PRIMARY KEY,
    email         TEXT NOT NULL,
    email_key     TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL DEFAULT '',
    password_hash BYTEA,
    created_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE organizations (
    id         TEXT COLLATE "C" PRIMARY KEY,
    name       TEXT NOT NULL,
    slug       TEXT NOT NULL UNIQUE,
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE memberships (
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role            TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE sessions (
    id                     TEXT COLLATE "C" PRIMARY KEY,
    user_id                TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash             BYTEA NOT NULL UNIQUE,
    csrf_token             TEXT NOT NULL DEFAULT '',
    active_organization_id TEXT NOT NULL DEFAULT '',
    active_project_id      TEXT NOT NULL DEFAULT '',
    created_at             TIMESTAMPTZ NOT NULL,
    expires_at             TIMESTAMPTZ NOT NULL,
    revoked_at             TIMESTAMPTZ
);

CREATE TABLE projects (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    slug            TEXT NOT NULL,
    description     TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    UNIQUE (organization_id, slug)
);
CREATE INDEX projects_org_created ON projects (organization_id, created_at, id);

CREATE TABLE api_keys (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    project_id      TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name            TEXT NOT NULL DEFAULT '',
    prefix          TEXT NOT NULL,
    hash            BYTEA NOT NULL UNIQUE,
    scopes          TEXT NOT NULL,
    expires_at      TIMESTAMPTZ,
    last_used_at    TIMESTAMPTZ,
    revoked_at      TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX api_keys_org_created ON api_keys (organization_id, created_at DESC, id DESC);

CREATE TABLE workflows (
    id                 TEXT COLLATE "C" PRIMARY KEY,
    organization_id    TEXT NOT NULL REFERENCES organizations(id),
    project_id         TEXT NOT NULL REFERENCES projects(id),
    name               TEXT NOT NULL,
    description        TEXT NOT NULL DEFAULT '',
    kind               TEXT NOT NULL,
    env_vars           TEXT NOT NULL DEFAULT '[]',
    trigger_code       TEXT NOT NULL DEFAULT '',
    dependencies       TEXT NOT NULL DEFAULT '{}',
    deploy_config      TEXT NOT NULL DEFAULT 'null',
    current_version_id TEXT NOT NULL DEFAULT '',
    active_version_id  TEXT NOT NULL DEFAULT '',
    last_version       INTEGER NOT NULL DEFAULT 0,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX workflows_project_created ON workflows (project_id, created_at DESC, id DESC);
CREATE INDEX workflows_org ON workflows (organization_id);

CREATE TABLE versions (
    id          TEXT COLLATE "C" PRIMARY KEY,
    workflow_id TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    ir          TEXT,
    code        TEXT NOT NULL DEFAULT '',
    locked      BOOLEAN NOT NULL DEFAULT false,
    node_types  TEXT NOT NULL DEFAULT '[]',
    created_by  TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL,
    UNIQUE (workflow_id, number)
);

-- version_nodes indexes the marketplace nodes a version uses, by node id.
CREATE TABLE version_nodes (
    version_id TEXT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    node_id    TEXT NOT NULL,
    PRIMARY KEY (node_id, version_id)
);
CREATE INDEX version_nodes_version ON version_nodes (version_id);

-- deployments.version_id and connection_id carry no foreign key: replaced and
-- removed deployments keep naming versions and connections deleted since.
CREATE TABLE deployments (
    id            TEXT COLLATE "C" PRIMARY KEY,
    workflow_id   TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
    project_id    TEXT NOT NULL,
    version_id    TEXT NOT NULL,
    connection_id TEXT NOT NULL,
    status        TEXT NOT NULL,
    url           TEXT NOT NULL DEFAULT '',
    script_name   TEXT NOT NULL DEFAULT '',
    workflow_name TEXT NOT NULL DEFAULT '',
    created_by    TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMPTZ NOT NULL,
    removed_at    TIMESTAMPTZ
);
CREATE UNIQUE INDEX deployments_one_active ON deployments (workflow_id, connection_id) WHERE status = 'active';
CREATE INDEX deployments_project_created ON deployments (project_id, created_at DESC, id DESC);
CREATE INDEX deployments_workflow_created ON deployments (workflow_id, created_at DESC, id DESC);
CREATE INDEX deployments_active_version ON deployments (version_id) WHERE status = 'active';
CREATE INDEX deployments_active_connection ON deployments (connection_id) WHERE status = 'active';

CREATE TABLE runs (
    id               TEXT COLLATE "C" PRIMARY KEY,
    workflow_id      TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
    project_id       TEXT NOT NULL,
    version_id       TEXT NOT NULL DEFAULT '',
    connection_id    TEXT NOT NULL DEFAULT '',
    deployment_id    TEXT NOT NULL DEFAULT '',
    workflow_name    TEXT NOT NULL DEFAULT '',
    instance_id      TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL,
    status_detail    TEXT NOT NULL DEFAULT '',
    params           TEXT,
    output           TEXT,
    error            TEXT NOT NULL DEFAULT '',
    steps            TEXT,
    created_at       TIMESTAMPTZ NOT NULL,
    started_at       TIMESTAMPTZ,
    ended_at         TIMESTAMPTZ,
    updated_at       TIMESTAMPTZ NOT NULL,
    next_refresh_at  TIMESTAMPTZ,
    refresh_failures INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_project_created ON runs (project_id, created_at DESC, id DESC);
CREATE INDEX runs_workflow_created ON runs (workflow_id, created_at DESC, id DESC);
CREATE INDEX runs_workflow_instance ON runs (workflow_id, instance_id);
CREATE INDEX runs_refresh ON runs (next_refresh_at, id) WHERE next_refresh_at IS NOT NULL;

CREATE TABLE connections (
    id                 TEXT COLLATE "C" PRIMARY KEY,
    organization_id    TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    provider           TEXT NOT NULL,
    name               TEXT NOT NULL,
    account_id         TEXT NOT NULL DEFAULT '',
    sealed_credentials BYTEA,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX connections_org_created ON connections (organization_id, created_at DESC, id DESC);

-- env_vars.project_id is '' for organization-level variables, so that the
-- unique constraint covers both scopes.
CREATE TABLE env_vars (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    project_id      TEXT NOT NULL DEFAULT '',
    name            TEXT COLLATE "C" NOT NULL,
    value           TEXT NOT NULL DEFAULT '',
    is_secret       BOOLEAN NOT NULL DEFAULT false,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    UNIQUE (organization_id, project_id, name)
);
CREATE INDEX env_vars_org_name ON env_vars (organization_id, name, id);

CREATE TABLE installed_nodes (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    node_id         TEXT COLLATE "C" NOT NULL,
    version         TEXT NOT NULL,
    definition      TEXT,
    template        TEXT NOT NULL DEFAULT '',
    checksum        TEXT NOT NULL DEFAULT '',
    installed_by    TEXT NOT NULL DEFAULT '',
    installed_at    TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    UNIQUE (organization_id, node_id)
);

CREATE TABLE rate_hits (
    key          TEXT NOT NULL,
    window_start TIMESTAMPTZ NOT NULL,
    count        INTEGER NOT NULL,
    PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_hits_window ON rate_hits (window_start);
