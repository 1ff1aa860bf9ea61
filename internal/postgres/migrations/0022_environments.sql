-- Environments of a project (docs/environments.md; docs/decisions.md 610):
-- a name bound to one connection the project may use ('' until set). Every
-- project has production, bound to nothing until set. A connection is bound
-- to at most one environment of a project. Deployments and runs record the
-- environment they were made in ('' before environments, or on a
-- connection bound to none); env_vars.env_values holds a variable's value
-- per environment (JSON {"<environment>": "<value>"}, each sealed for a
-- secret) and env_only whether environments without a value lack it.
CREATE TABLE environments (
    project_id    TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name          TEXT COLLATE "C" NOT NULL,
    connection_id TEXT NOT NULL DEFAULT '',
    protected     BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (project_id, name)
);
CREATE UNIQUE INDEX environments_connection ON environments (project_id, connection_id) WHERE connection_id <> '';
INSERT INTO environments (project_id, name, connection_id, protected, created_at, updated_at)
    SELECT id, 'production', '', FALSE, created_at, created_at FROM projects;
ALTER TABLE deployments ADD COLUMN environment TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN environment TEXT NOT NULL DEFAULT '';
ALTER TABLE env_vars ADD COLUMN env_values TEXT;
ALTER TABLE env_vars ADD COLUMN env_only BOOLEAN NOT NULL DEFAULT FALSE;
