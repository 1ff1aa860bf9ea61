-- Runs shared by several replicas (docs/decisions.md 135, 136).
-- state_version counts the writes of a run's status: a refresh writes only
-- if it is unchanged since the refresh read the run, so a stale refresh
-- never moves a run back to an earlier state.
-- refresh_claimed_until is set by the replica that took the run for a
-- refresh; other replicas leave the run alone until it passes (or until the
-- refresh writes, which clears it).
ALTER TABLE runs ADD COLUMN state_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN refresh_claimed_until TIMESTAMPTZ;
