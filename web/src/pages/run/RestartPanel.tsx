import { useEffect, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import type { Run, VersionDetail } from "../../api/models";
import { ErrorMessage } from "../../app/ui";
import { containerEntries, isContainer, nodeStateOfStep, restartable, stateLabel } from "../../runs/steps";

// RestartPanel restarts the run from a step chosen on the graph (or in the list): as a new run (replay; the version
// is the run's own or the one deployed now), or in place (the provider restarts this run's own instance, only while
// its version is deployed). The list offers the containers too, with their state: a restart from a container starts
// from the first step of its lanes in this run (the container's conditions are evaluated again from there; one whose
// lanes did not run cannot be chosen). A refusal, such as in place once another version is deployed, is shown in the
// server's words.
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
  const [mode, setMode] = useState<"replay" | "in-place">("replay");
  const containers = containerEntries(version.ir.nodes, version.ir.edges, run.steps ?? []);
  const choices = version.ir.nodes.filter((n) => restartable(n) || isContainer(n));
  const chosen = choices.find((n) => n.id === fromStep);
  const container = containers.find((c) => c.id === fromStep);
  // what the server restarts from: a container's first step in this run
  const target = container ? (container.firstStep?.nodeId ?? "") : fromStep;
  const m = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/workflows/{workflowId}/runs/{runId}/restart", {
          params: { path: { workflowId, runId: run.id } },
          body: {
            ...(target ? { fromStep: target } : {}),
            ...(mode === "in-place" ? { mode } : { version: which }),
          },
        }),
      ),
    onSuccess: onRestarted,
  });
  const { reset } = m;
  useEffect(() => reset(), [fromStep, which, mode, reset]); // a refusal was about the former choice
  const states = new Map(run.steps?.map((s) => [s.nodeId, nodeStateOfStep(s)]) ?? []);
  return (
    <section className="panel restart" aria-labelledby="restart-title">
      <h2 id="restart-title">Restart</h2>
      <p className="small muted">
        Click a step on the graph, or choose it below. The steps before it keep their outputs from this run; the restart
        executes from it on.
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
            {choices.map((n) => {
              const c = containers.find((x) => x.id === n.id);
              return c ? (
                <option key={n.id} value={n.id} disabled={!c.firstStep}>
                  {c.name} ({c.type}, {stateLabel(c.state)})
                </option>
              ) : (
                <option key={n.id} value={n.id}>
                  {n.name || n.id} ({stateLabel(states.get(n.id) ?? "not-run")})
                </option>
              );
            })}
          </select>
        </div>
        <fieldset className="field">
          <legend>Restart as</legend>
          <label>
            <input type="radio" name="restart-mode" checked={mode === "replay"} onChange={() => setMode("replay")} /> A
            new run (this one stays as it is)
          </label>
          <label>
            <input
              type="radio"
              name="restart-mode"
              checked={mode === "in-place"}
              onChange={() => setMode("in-place")}
            />{" "}
            This run, in place (its own version, while it is deployed)
          </label>
        </fieldset>
        <fieldset className="field" disabled={mode === "in-place"}>
          <legend>Version</legend>
          <label>
            <input type="radio" name="restart-version" checked={which === "same"} onChange={() => setWhich("same")} />{" "}
            This run's version
          </label>
          <label>
            <input
              type="radio"
              name="restart-version"
              checked={which === "current"}
              onChange={() => setWhich("current")}
            />{" "}
            The version deployed now
          </label>
        </fieldset>
        <ErrorMessage error={m.error} title="Not restarted" />
        <button type="submit" className="primary" disabled={m.isPending || (container !== undefined && !target)}>
          {chosen ? `Restart from ${chosen.name || chosen.id}` : "Restart from the start"}
          {mode === "in-place" ? " in place" : ""}
        </button>
      </form>
    </section>
  );
}
