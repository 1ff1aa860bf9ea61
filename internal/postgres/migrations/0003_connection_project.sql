-- A connection belongs to its organization (project_id '', organization-wide) or to one
-- of its projects: connections created with a project API key are the
-- project's (docs/decisions.md 80). Existing connections stay
-- organization-wide.
ALTER TABLE connections ADD COLUMN project_id TEXT NOT NULL DEFAULT '';
CREATE INDEX connections_project ON connections (organization_id, project_id);
