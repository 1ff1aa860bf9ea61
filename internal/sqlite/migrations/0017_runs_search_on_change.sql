-- The search index of a run is written again only when the text it indexes
-- changed: every refresh writes params, output and error back (most often
-- unchanged, while a run is queued or running), and each rewrite of an FTS5
-- row costs a delete and an insert in the index.
DROP TRIGGER runs_search_update;
CREATE TRIGGER runs_search_update AFTER UPDATE OF params, output, error ON runs
WHEN old.params IS NOT new.params OR old.output IS NOT new.output OR old.error IS NOT new.error
BEGIN
    DELETE FROM runs_search WHERE rowid = old.rowid;
    INSERT INTO runs_search (rowid, body)
        VALUES (new.rowid, coalesce(new.params, '') || ' ' || coalesce(new.output, '') || ' ' || new.error);
END;
