import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { api, ok } from "../../api/client";
import { parseJsonObject } from "../../api/forms";
import { invalidateRunLists } from "../../api/queries/runs";
import type { WorkflowFull } from "../../api/models";
import { ErrorMessage } from "../../app/ui";

// RunPanel triggers a run of the deployed workflow with JSON params and opens the run's page.
export function RunPanel({ full }: { full: WorkflowFull }) {
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const [text, setText] = useState("{\n  \n}");
  const [error, setError] = useState("");
  const dep = full.activeDeployment;
  const trigger = useMutation({
    mutationFn: (params: Record<string, unknown>) =>
      ok(
        api.POST("/api/workflows/{workflowId}/trigger", {
          params: { path: { workflowId: full.workflow.id } },
          body: { connectionId: dep!.connectionId, params },
        }),
      ),
    onSuccess: (r) => {
      invalidateRunLists(qc, full.workflow.id);
      navigate(`/workflows/${full.workflow.id}/runs/${r.id}`);
    },
  });
  return (
    <section className="panel" aria-labelledby="run-title">
      <h2 id="run-title">Run</h2>
      {!dep ? (
        <p className="muted">Deploy the workflow first: a run starts on its deployment.</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const p = parseJsonObject(text);
            if ("error" in p) {
              setError(p.error);
              return;
            }
            setError("");
            trigger.mutate(p.value);
          }}
        >
          <div className="field">
            <label htmlFor="run-params">Params (JSON)</label>
            <textarea
              id="run-params"
              className="code"
              rows={8}
              spellCheck={false}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby="run-params-hint"
            />
            <p id="run-params-hint" className="hint">
              The trigger payload: the code reads it as <code>event.payload</code>.
            </p>
            {error && <p className="field-error">{error}</p>}
          </div>
          <ErrorMessage error={trigger.error} title="Not started" />
          <button type="submit" className="primary" disabled={trigger.isPending}>
            {trigger.isPending ? "Starting…" : "Start run"}
          </button>
        </form>
      )}
    </section>
  );
}
