-- A provider instance is recorded as one run of its workflow: two replicas
-- discovering the same cron-started instance cannot both record it
-- (docs/decisions.md 55). Duplicates recorded before are dropped first,
-- keeping the earliest.
DELETE FROM runs WHERE instance_id <> '' AND rowid NOT IN (
    SELECT min(rowid) FROM runs WHERE instance_id <> '' GROUP BY workflow_id, instance_id);
DROP INDEX runs_workflow_instance;
CREATE UNIQUE INDEX runs_workflow_instance ON runs (workflow_id, instance_id) WHERE instance_id <> '';
