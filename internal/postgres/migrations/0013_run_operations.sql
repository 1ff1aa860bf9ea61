-- Runs you can operate (docs/runs.md; docs/decisions.md 210-217).
-- restart_of and from_step record where a restarted run came from; replayed
-- holds, as a JSON array, the steps it took from the original run without
-- executing them (with their full outputs).
ALTER TABLE runs ADD COLUMN restart_of TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN from_step TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN replayed TEXT;
