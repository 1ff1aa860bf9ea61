-- A workflow deployment's worker token and public trigger signing secret,
-- sealed (internal/secret), '' when the deployment has none (docs/decisions.md 75).
ALTER TABLE deployments ADD COLUMN worker_token TEXT NOT NULL DEFAULT '';
ALTER TABLE deployments ADD COLUMN trigger_secret TEXT NOT NULL DEFAULT '';
