-- Failed sign-ins per email since the last success, for the sign-in back-off
-- (docs/decisions.md 85). key is a hash of the lower-cased email, so that
-- addresses tried for accounts that do not exist are not stored.
CREATE TABLE sign_in_failures (
    key            TEXT NOT NULL PRIMARY KEY,
    count          INTEGER NOT NULL,
    last_failed_at INTEGER NOT NULL
);
CREATE INDEX sign_in_failures_last ON sign_in_failures (last_failed_at);
