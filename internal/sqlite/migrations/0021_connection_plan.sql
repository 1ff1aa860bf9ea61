-- A connection's Workflows plan and its own limits (docs/deploy.md, "Plan
-- limits"; docs/decisions.md 541). plan '' is the paid plan; plan_limits is
-- the JSON of {steps?, cpuMs?}, NULL when the plan's defaults apply.
ALTER TABLE connections ADD COLUMN plan TEXT NOT NULL DEFAULT '';
ALTER TABLE connections ADD COLUMN plan_limits TEXT;
