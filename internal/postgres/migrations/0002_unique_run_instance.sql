-- A provider instance is recorded as one run of its workflow: two replicas
-- discovering the same cron-started instance cannot both record it
-- (docs/decisions.md 55). Duplicates recorded before are dropped first,
-- keeping the earliest.
DELETE FROM runs a USING runs b
    WHERE a.instance_id <> '' AND a.workflow_id = b.workflow_id AND a.instance_id = b.instance_id
    AND (a.created_at, a.id) > (b.created_at, b.id);
DROP INDEX runs_workflow_instance;
CREATE UNIQUE INDEX runs_workflow_instance ON runs (workflow_id, instance_id) WHERE instance_id <> '';
