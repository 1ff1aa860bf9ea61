import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { parseJsonObject } from "../../api/forms";
import type { Run } from "../../api/models";
import { ErrorMessage } from "../../app/ui";

// ReplayPanel replays the run with edited params (POST …/replay): "Replay with changes" opens the run's params in
// the JSON editor; the replay starts from the step chosen for a restart (the steps before it keep this run's
// outputs), or from the start, on this run's version. A refusal is shown in the server's words.
export function ReplayPanel({
  workflowId,
  run,
  fromStep,
  onReplayed,
}: {
  workflowId: string;
  run: Run;
  fromStep: string;
  onReplayed: (r: Run) => void;
}) {
  const [text, setText] = useState<string | null>(null); // null: closed
  const [error, setError] = useState("");
  const m = useMutation({
    mutationFn: (params: Record<string, unknown>) =>
      ok(
        api.POST("/api/workflows/{workflowId}/runs/{runId}/replay", {
          params: { path: { workflowId, runId: run.id } },
          body: { params, ...(fromStep ? { fromStep } : {}) },
        }),
      ),
    onSuccess: onReplayed,
  });
  return (
    <section className="panel replay" aria-labelledby="replay-title">
      <h2 id="replay-title">Replay with changes</h2>
      {text === null ? (
        <button type="button" onClick={() => setText(JSON.stringify(run.params ?? {}, null, 2))}>
          Replay with changes
        </button>
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
            m.mutate(p.value);
          }}
        >
          <div className="field">
            <label htmlFor="replay-params">Params (JSON)</label>
            <textarea
              id="replay-params"
              className="code"
              rows={8}
              spellCheck={false}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby="replay-params-hint"
            />
            <p id="replay-params-hint" className="hint">
              This run's params: edit them, and a new run starts with them
              {fromStep ? ` from ${fromStep} (the steps before it keep this run's outputs)` : " from the start"}.
            </p>
            {error && <p className="field-error">{error}</p>}
          </div>
          <ErrorMessage error={m.error} title="Not replayed" />
          <button type="submit" className="primary" disabled={m.isPending}>
            {m.isPending ? "Starting…" : "Replay"}
          </button>{" "}
          <button type="button" onClick={() => setText(null)}>
            Cancel
          </button>
        </form>
      )}
    </section>
  );
}
