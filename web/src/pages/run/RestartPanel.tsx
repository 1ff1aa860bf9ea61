import { useEffect, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import type { Run, VersionDetail } from "../../api/models";
import { ErrorMessage } from "../../app/ui";
import { nodeStateOfStep, restartable, stateLabel } from "../../runs/steps";

// RestartPanel starts a new run from a step of this one: the step is chosen on the graph (or in the list), the
// version is the run's own or the one deployed now; a refusal is shown in the server's words.
export function RestartPanel({
  workflowId,
  run,
  version,
  fromStep,
  setFromStep,
  onRestarted,
}: {
  workflowId: string;
  run: Run;
  version: VersionDetail;
  fromStep: string;
  setFromStep: (id: string) => void;
  onRestarted: (r: Run) => void;
}) {
  const [which, setWhich] = useState<"same" | "current">("same");
  const choices = version.ir.nodes.filter(restartable);
  const chosen = choices.find((n) => n.id === fromStep);
  const m = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/workflows/{workflowId}/runs/{runId}/restart", {
          params: { path: { workflowId, runId: run.id } },
          body: { ...(fromStep ? { fromStep } : {}), version: which },
        }),
      ),
    onSuccess: onRestarted,
  });
  const { reset } = m;
  useEffect(() => reset(), [fromStep, which, reset]); // a refusal was about the former choice
  const states = new Map(run.steps?.map((s) => [s.nodeId, nodeStateOfStep(s)]) ?? []);
  return (
    <section className="panel restart" aria-labelledby="restart-title">
      <h2 id="restart-title">Restart</h2>
      <p className="small muted">
        Click a step on the graph, or choose it below. The steps before it keep their outputs from this run; the new
        run executes from it on.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          m.mutate();
        }}
      >
        <div className="field">
          <label htmlFor="restart-from">Restart from</label>
          <select id="restart-from" value={fromStep} onChange={(e) => setFromStep(e.target.value)}>
            <option value="">the start</option>
            {choices.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name || n.id} ({stateLabel(states.get(n.id) ?? "not-run")})
              </option>
            ))}
          </select>
        </div>
        <fieldset className="field">
          <legend>VersionDetail</legend>
          <label>
            <input type="radio" name="restart-version" checked={which === "same"} onChange={() => setWhich("same")} /> This
            run's version
          </label>
          <label>
            <input type="radio" name="restart-version" checked={which === "current"} onChange={() => setWhich("current")} />{" "}
            The version deployed now
          </label>
        </fieldset>
        <ErrorMessage error={m.error} title="Not restarted" />
        <button type="submit" className="primary" disabled={m.isPending}>
          {chosen ? `Restart from ${chosen.name || chosen.id}` : "Restart from the start"}
        </button>
      </form>
    </section>
  );
}
