-- A run's token usage (docs/runs.md, "Token usage"; docs/decisions.md 521):
-- the tokens of its agents' successful model calls, kept beside the run so
-- that lists carry it and GET /api/runs/usage sums it per workflow without
-- reading step lists. NULL: the run made no model call.
ALTER TABLE runs ADD COLUMN input_tokens INTEGER;
ALTER TABLE runs ADD COLUMN output_tokens INTEGER;

-- The runs that made model calls, newest first per project: the sums read
-- only these.
CREATE INDEX runs_project_usage ON runs (project_id, created_at DESC, id DESC) WHERE input_tokens IS NOT NULL;

-- Runs stored before this migration: summed from their step lists as the
-- service sums them (successful "agent <node> turn N" steps).
UPDATE runs SET
    input_tokens = (SELECT sum(max(coalesce(json_extract(s.value, '$.output.usage.inputTokens'), 0), 0))
        FROM json_each(runs.steps) AS s
        WHERE json_extract(s.value, '$.type') = 'step' AND json_extract(s.value, '$.success') = 1
          AND json_extract(s.value, '$.name') GLOB 'agent * turn [0-9]*'),
    output_tokens = (SELECT sum(max(coalesce(json_extract(s.value, '$.output.usage.outputTokens'), 0), 0))
        FROM json_each(runs.steps) AS s
        WHERE json_extract(s.value, '$.type') = 'step' AND json_extract(s.value, '$.success') = 1
          AND json_extract(s.value, '$.name') GLOB 'agent * turn [0-9]*')
WHERE steps LIKE '%agent % turn %' AND json_valid(steps);
