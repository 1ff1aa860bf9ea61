-- Run search also finds the words of step outputs and of the event payloads
-- a run received (docs/runs.md, "Finding runs"; docs/decisions.md 750-753).
-- step_words holds the words the store takes from a run's step list when it
-- writes the run (sqlstore.StepWords: at most 2 KiB per output and 16 KiB
-- per run, never a sensitive step's output); NULL when there are none. The
-- generated search column is made again with it (this rewrites the table
-- and its GIN index once). Runs stored before this migration keep NULL until
-- their steps are written again.
ALTER TABLE runs ADD COLUMN step_words TEXT;
DROP INDEX runs_search;
ALTER TABLE runs DROP COLUMN search;
ALTER TABLE runs ADD COLUMN search tsvector GENERATED ALWAYS AS (
    to_tsvector('simple', coalesce(params, '') || ' ' || coalesce(output, '') || ' ' || error || ' ' ||
        coalesce(step_words, ''))) STORED;
CREATE INDEX runs_search ON runs USING GIN (search);
