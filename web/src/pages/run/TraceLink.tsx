import type { Run } from "../../api/models";

// TraceLink links a traced run to its trace in the operator's tracing UI (traceUrl, made by the server from
// EDGEFLOW_TRACE_URL_TEMPLATE; docs/observability.md). A run without a link shows nothing.
export function TraceLink({ run }: { run: Pick<Run, "traceId" | "traceUrl"> }) {
  if (!run.traceUrl) return null;
  return (
    <p className="small">
      <a href={run.traceUrl} target="_blank" rel="noopener noreferrer">
        View trace
      </a>{" "}
      <code>{run.traceId}</code>
    </p>
  );
}
