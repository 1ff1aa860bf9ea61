// BulkBar acts on many runs at once from the runs screen: the runs ticked on the page or all the runs the filters
// match, an action of POST /api/runs/bulk, a dry run whose count the confirm dialog shows, then the job's progress
// (GET /api/runs/bulk/:id, polled until it ends) with a way to cancel it (DELETE).
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../api/client";
import { runKeys } from "../api/queries/runs";
import { ConfirmDialog } from "../app/fields";
import { ErrorMessage } from "../app/ui";
import {
  BULK_ACTIONS,
  bulkFilter,
  jobRunning,
  progressText,
  runsWord,
  type BulkAction,
  type BulkJob,
  type Choice,
} from "./bulk";
import type { RunFilters } from "./filters";

// POLL_MS is how often a running job's progress is read.
const POLL_MS = 1000;

export function BulkBar({
  filters,
  choice,
  onChoice,
  empty,
}: {
  filters: RunFilters;
  choice: Choice;
  onChoice: (c: Choice) => void;
  // empty: the list shows no run; the bar then shows only a job still followed (one that deleted the runs)
  empty?: boolean;
}) {
  const qc = useQueryClient();
  const [action, setAction] = useState<BulkAction>("restart");
  const [fromStep, setFromStep] = useState("");
  const [version, setVersion] = useState<"same" | "current">("same");
  const [review, setReview] = useState<{ matched: number; runIds: string[] } | null>(null);
  const [jobId, setJobId] = useState("");
  const chosen = BULK_ACTIONS.find((a) => a.action === action)!;
  const takesStep = action === "restart" || action === "replay";
  const body = (dryRun: boolean) => ({
    action,
    filter: bulkFilter(choice, filters),
    ...(takesStep && fromStep.trim() ? { fromStep: fromStep.trim() } : {}),
    ...(takesStep && version === "current" ? { version } : {}),
    ...(dryRun ? { dryRun: true } : {}),
  });

  const dry = useMutation({
    mutationFn: () => ok(api.POST("/api/runs/bulk", { body: body(true) })),
    onSuccess: (r) => setReview({ matched: r.matched, runIds: r.runIds ?? [] }),
  });
  const start = useMutation({
    mutationFn: () => ok(api.POST("/api/runs/bulk", { body: body(false) })),
    onSuccess: (r) => {
      setReview(null);
      setJobId(r.id ?? "");
      onChoice({ kind: "ticked", ids: [] });
    },
  });
  const job = useQuery({
    queryKey: runKeys.bulkJob(jobId),
    queryFn: async (): Promise<BulkJob> => {
      const j = await ok(api.GET("/api/runs/bulk/{bulkId}", { params: { path: { bulkId: jobId } } }));
      if (!jobRunning(j)) void qc.invalidateQueries({ queryKey: runKeys.lists });
      return j;
    },
    enabled: jobId !== "",
    refetchInterval: (q) => (q.state.data && !jobRunning(q.state.data) ? false : POLL_MS),
  });
  const cancel = useMutation({
    mutationFn: () => ok(api.DELETE("/api/runs/bulk/{bulkId}", { params: { path: { bulkId: jobId } } })),
    onSuccess: (j) => qc.setQueryData(runKeys.bulkJob(jobId), j),
  });

  const ticked = choice.kind === "ticked" ? choice.ids.length : 0;
  const running = job.data ? jobRunning(job.data) : jobId !== "";
  const what = choice.kind === "matching" ? "all runs matching the filters" : runsWord(ticked) + " selected";

  if (empty && jobId === "") return null;
  return (
    <section className="bulk-bar" aria-label="Bulk actions">
      <p className="small" role="status">
        {choice.kind === "matching"
          ? "All runs matching the filters are chosen."
          : ticked > 0
            ? `${runsWord(ticked)} selected.`
            : "Tick runs to act on them (shift-click ticks a range), or choose all runs matching the filters."}
      </p>
      <div className="bulk-controls">
        {choice.kind === "matching" || ticked > 0 ? (
          <button type="button" onClick={() => onChoice({ kind: "ticked", ids: [] })}>
            Clear selection
          </button>
        ) : null}
        {choice.kind !== "matching" && (
          <button type="button" onClick={() => onChoice({ kind: "matching" })}>
            Select all matching
          </button>
        )}
        <div className="field">
          <label htmlFor="bulk-action">Action</label>
          <select id="bulk-action" value={action} onChange={(e) => setAction(e.target.value as BulkAction)}>
            {BULK_ACTIONS.map((a) => (
              <option key={a.action} value={a.action}>
                {a.verb}
              </option>
            ))}
          </select>
        </div>
        {takesStep && (
          <div className="field">
            <label htmlFor="bulk-from-step">Starting step (optional)</label>
            <input
              id="bulk-from-step"
              value={fromStep}
              placeholder="the start"
              onChange={(e) => setFromStep(e.target.value)}
            />
          </div>
        )}
        {takesStep && (
          <div className="field">
            <label htmlFor="bulk-version">Code to run</label>
            <select
              id="bulk-version"
              value={version}
              onChange={(e) => setVersion(e.target.value as "same" | "current")}
            >
              <option value="same">Each run&apos;s own version</option>
              <option value="current">The version deployed now</option>
            </select>
          </div>
        )}
        <button
          type="button"
          className="primary"
          disabled={(choice.kind === "ticked" && ticked === 0) || dry.isPending || running}
          onClick={() => dry.mutate()}
        >
          {chosen.verb} {what}…
        </button>
      </div>
      <ErrorMessage error={dry.error} title="The runs could not be counted" />
      {review && (
        <ConfirmDialog
          title={`${chosen.verb} ${runsWord(review.matched)}?`}
          action={`${chosen.verb} ${runsWord(review.matched)}`}
          danger={chosen.danger}
          failure="Not started"
          error={start.error}
          pending={start.isPending || review.matched === 0}
          onConfirm={() => start.mutate()}
          onClose={() => {
            setReview(null);
            start.reset();
          }}
        >
          <p>
            {review.matched === 0
              ? "No run matches: there is nothing to do."
              : `${chosen.verb} ${chosen.does}: ${runsWord(review.matched)}${takesStep && fromStep.trim() ? `, from step ${fromStep.trim()}` : ""}. It runs in the background; you can cancel it.`}
          </p>
          {review.runIds.length > 0 && (
            <p className="muted small">
              {review.matched > review.runIds.length ? "The first of them: " : "They are: "}
              {review.runIds.join(", ")}
            </p>
          )}
        </ConfirmDialog>
      )}
      {jobId !== "" && (
        <div className="bulk-progress" aria-label="Bulk job">
          {job.data && (
            <>
              <progress
                aria-label={`${chosen.verb} progress`}
                max={Math.max(job.data.matched, 1)}
                value={job.data.matched === 0 ? 1 : job.data.done}
              />
              <p className="small" role="status">
                {progressText(job.data)}
              </p>
              {job.data.failed.length > 0 && (
                <ul className="small">
                  {job.data.failed.map((f) => (
                    <li key={f.runId}>
                      <code>{f.runId}</code>: {f.error}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
          <ErrorMessage error={job.error ?? cancel.error} title="The job could not be read or cancelled" />
          {running ? (
            <button type="button" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              Cancel job
            </button>
          ) : (
            <button type="button" onClick={() => setJobId("")}>
              Dismiss
            </button>
          )}
        </div>
      )}
    </section>
  );
}
