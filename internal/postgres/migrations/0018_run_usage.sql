-- A run's token usage (docs/runs.md, "Token usage"; docs/decisions.md 521):
-- the tokens of its agents' successful model calls, kept beside the run so
-- that lists carry it and GET /api/runs/usage sums it per workflow without
-- reading step lists. NULL: the run made no model call.
ALTER TABLE runs ADD COLUMN input_tokens BIGINT;
ALTER TABLE runs ADD COLUMN output_tokens BIGINT;

-- The runs that made model calls, newest first per project: the sums read
-- only these.
CREATE INDEX runs_project_usage ON runs (project_id, created_at DESC, id DESC) WHERE input_tokens IS NOT NULL;

-- Runs stored before this migration: summed from their step lists as the
-- service sums them (successful "agent <node> turn N" steps); a step list
-- that does not read as JSON, or a count that is not a number, leaves the
-- run without usage.
DO $$
DECLARE
    r record;
    steps jsonb;
BEGIN
    FOR r IN SELECT workflow_id, id, runs.steps AS body FROM runs WHERE runs.steps LIKE '%agent % turn %' LOOP
        BEGIN
            steps := r.body::jsonb;
            IF jsonb_typeof(steps) = 'array' THEN
                UPDATE runs SET
                    input_tokens = u.input_tokens, output_tokens = u.output_tokens
                FROM (
                    SELECT sum(greatest(coalesce((s->'output'->'usage'->>'inputTokens')::numeric, 0), 0))::bigint AS input_tokens,
                           sum(greatest(coalesce((s->'output'->'usage'->>'outputTokens')::numeric, 0), 0))::bigint AS output_tokens,
                           count(*) AS n
                    FROM jsonb_array_elements(steps) AS s
                    WHERE s->>'type' = 'step' AND s->'success' = 'true'::jsonb AND s->>'name' ~ '^agent .+ turn [0-9]+$'
                ) AS u
                WHERE runs.workflow_id = r.workflow_id AND runs.id = r.id AND u.n > 0;
            END IF;
        EXCEPTION WHEN others THEN
            NULL;
        END;
    END LOOP;
END $$;
