import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, type ErrorDetail } from "../../api/client";
import type { StepOutput } from "../../api/schema.gen";
import type { RunStep } from "../../api/models";
import { runKeys } from "../../api/queries/runs";
import { Dialog, ErrorMessage, Json, Loading } from "../../app/ui";

// stepOutputURL is the route of a step's full output (docs/runs.md, "Step outputs"): the loop iteration comes from
// the step's name (" #2" or " #1.3"), attempt 0 is the step as a whole.
export function stepOutputURL(workflowId: string, runId: string, step: RunStep, attempt: number): string {
  const q = new URLSearchParams();
  const iteration = / #(\d+(?:\.\d+)*)$/.exec(step.name)?.[1];
  if (iteration) q.set("iteration", iteration);
  if (attempt > 0) q.set("attempt", String(attempt));
  const base = `/api/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(runId)}/steps/${encodeURIComponent(step.nodeId)}/output`;
  return q.size > 0 ? `${base}?${q}` : base;
}

// A step's output as read: JSON, or a stream (its bytes are offered as a download, never shown).
type Read = { kind: "json"; value: StepOutput } | { kind: "stream"; state: string };

async function readOutput(url: string, signal: AbortSignal): Promise<Read> {
  const res = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", signal });
  if (res.ok && res.headers.get("Content-Type") === "application/octet-stream") {
    await res.body?.cancel(); // the bytes are for the download link, not for the page
    return { kind: "stream", state: res.headers.get("Edgeflow-Step-State") ?? "complete" };
  }
  let data: unknown;
  try {
    data = await res.json();
  } catch {
    throw new ApiError(res.status, "bad_response", "the server answered something other than JSON");
  }
  if (!res.ok) {
    const e = (data ?? {}) as { error?: string; code?: string; details?: ErrorDetail[]; requestId?: string };
    throw new ApiError(res.status, e.code ?? "error", e.error ?? res.statusText, e.details ?? [], e.requestId ?? "");
  }
  return { kind: "json", value: data as StepOutput };
}

// StepOutputDialog shows a step's full output, read from the provider through the step output route, for the step
// as a whole or one attempt of it: the JSON value (a sensitive step's [REDACTED] as the provider keeps it), or for a
// stream output a download of its bytes.
export function StepOutputDialog({
  workflowId,
  runId,
  step,
  onClose,
}: {
  workflowId: string;
  runId: string;
  step: RunStep;
  onClose: () => void;
}) {
  const [attempt, setAttempt] = useState(0);
  const url = stepOutputURL(workflowId, runId, step, attempt);
  const q = useQuery({
    queryKey: runKeys.stepOutput(runId, url),
    queryFn: ({ signal }) => readOutput(url, signal),
    retry: false,
  });
  const attempts = step.type === "step" ? step.attempts : 0;
  const d = q.data;
  return (
    <Dialog title={`Output of ${step.name}`} onClose={onClose} wide>
      {attempts > 1 && (
        <div className="field">
          <label htmlFor="step-output-attempt">Attempt</label>
          <select id="step-output-attempt" value={attempt} onChange={(e) => setAttempt(Number(e.target.value))}>
            <option value={0}>the step (its last attempt)</option>
            {Array.from({ length: attempts }, (_, i) => (
              <option key={i + 1} value={i + 1}>
                attempt {i + 1}
              </option>
            ))}
          </select>
        </div>
      )}
      {q.isPending && <Loading what="the output" />}
      <ErrorMessage error={q.error} title="The output could not be read" />
      {d?.kind === "stream" && (
        <p>
          This step returned a stream ({d.state}).{" "}
          <a href={url} download={`${step.nodeId}${attempt > 0 ? `-attempt-${attempt}` : ""}.bin`}>
            Download its bytes
          </a>
        </p>
      )}
      {d?.kind === "json" && (
        <>
          <p className="small muted">
            {d.value.state}
            {d.value.source === "run"
              ? " · as the run stored it (the provider cannot answer it)"
              : " · in full, from the provider"}
          </p>
          {d.value.output === "[REDACTED]" && (
            <p className="notice">
              The step's output is sensitive: the provider keeps it redacted, and so does edgeflow.
            </p>
          )}
          {d.value.error && (
            <p className="step-error">
              <strong>{d.value.error.name}:</strong> {d.value.error.message}
            </p>
          )}
          <Json value={d.value.output} label={`Full output of ${step.name}`} />
        </>
      )}
    </Dialog>
  );
}
