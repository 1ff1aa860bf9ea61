-- The trace context a run was triggered with when OpenTelemetry tracing is
-- on (docs/observability.md; decision 561): JSON {traceId, spanId,
-- parentSpanId, sampled, traceState, name}, NULL for a run without a trace.
-- Numbered apart from the sequence so that parallel branches' migrations
-- cannot take the same number.
ALTER TABLE runs ADD COLUMN trace_context TEXT;
