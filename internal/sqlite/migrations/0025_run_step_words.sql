-- Run search also finds the words of step outputs and of the event payloads
-- a run received (docs/runs.md, "Finding runs"; docs/decisions.md 750-753).
-- step_words holds the words the store takes from a run's step list when it
-- writes the run (sqlstore.StepWords: at most 2 KiB per output and 16 KiB
-- per run, never a sensitive step's output); NULL when there are none. The
-- FTS5 triggers index it beside params, output and error. Runs stored
-- before this migration keep NULL until their steps are written again.
ALTER TABLE runs ADD COLUMN step_words TEXT;

DROP TRIGGER runs_search_insert;
CREATE TRIGGER runs_search_insert AFTER INSERT ON runs BEGIN
    INSERT INTO runs_search (rowid, body)
        VALUES (new.rowid, coalesce(new.params, '') || ' ' || coalesce(new.output, '') || ' ' || new.error || ' ' ||
            coalesce(new.step_words, ''));
END;

DROP TRIGGER runs_search_update;
CREATE TRIGGER runs_search_update AFTER UPDATE OF params, output, error, step_words ON runs
WHEN old.params IS NOT new.params OR old.output IS NOT new.output OR old.error IS NOT new.error
    OR old.step_words IS NOT new.step_words
BEGIN
    DELETE FROM runs_search WHERE rowid = old.rowid;
    INSERT INTO runs_search (rowid, body)
        VALUES (new.rowid, coalesce(new.params, '') || ' ' || coalesce(new.output, '') || ' ' || new.error || ' ' ||
            coalesce(new.step_words, ''));
END;
