import type { RunStep } from "../../api/models";
import { formatDuration, formatTime, Json } from "../../app/ui";
import { nodeStateOfStep, stateLabel, type ContainerEntry } from "../../runs/steps";

// StepTimeline lists the run's steps in execution order with their state, times, attempts, output and error, each
// container that ran (branch, parallel, race, try/catch, loop) just before the first step of its lanes with its
// state and the arms taken; onOpenOutput, when given, offers each step's full output (per attempt) read from the
// provider.
export function StepTimeline({
  steps,
  containers = [],
  onOpenOutput,
}: {
  steps: readonly RunStep[];
  containers?: readonly ContainerEntry[];
  onOpenOutput?: (s: RunStep) => void;
}) {
  if (steps.length === 0) return <p className="muted">No step has run yet.</p>;
  const before = new Map<number, ContainerEntry[]>();
  for (const c of containers) {
    if (!c.firstStep) continue;
    before.set(c.firstStep.index, [...(before.get(c.firstStep.index) ?? []), c]);
  }
  return (
    <ol className="steps" aria-label="Steps, in execution order">
      {steps.map((s, i) => {
        const state = nodeStateOfStep(s);
        return [
          ...(before.get(i) ?? []).map((c) => <ContainerItem key={`container-${c.id}`} c={c} />),
          <li key={i} className={`step state-${state}`}>
            <div className="step-head">
              <span className={`badge run-node-${state}`}>{s.state}</span> <strong>{s.name}</strong>{" "}
              <span className="muted small">
                {s.type} · {formatTime(s.startedAt)} · {formatDuration(s.startedAt, s.endedAt)}
                {s.attempts > 1 ? ` · ${s.attempts} attempts` : ""}
              </span>{" "}
              {onOpenOutput && s.nodeId !== "" && s.type !== "sleep" && s.type !== "rollback" && (
                <button type="button" className="link-button small" onClick={() => onOpenOutput(s)}>
                  Full output{s.attempts > 1 ? " per attempt" : ""}
                </button>
              )}
            </div>
            {s.output !== undefined && s.output !== null && (
              <details>
                <summary>
                  Output of {s.name}
                  {s.outputTruncated ? " (first 64 KiB)" : ""}
                </summary>
                <Json value={s.output} label={`Output of ${s.name}`} />
              </details>
            )}
            {s.error && (
              <p className="step-error">
                <strong>{s.error.name}:</strong> {s.error.message}
              </p>
            )}
          </li>,
        ];
      })}
    </ol>
  );
}

// ContainerItem is a container in the Steps list: its state, its name and type, and the arms or lanes that ran.
function ContainerItem({ c }: { c: ContainerEntry }) {
  const arms = c.arms.map((a) => (a === "" ? "a lane" : `“${a}”`)).join(", ");
  return (
    <li className={`step container state-${c.state}`}>
      <div className="step-head">
        <span className={`badge run-node-${c.state}`}>{stateLabel(c.state)}</span> <strong>{c.name}</strong>{" "}
        <span className="muted small">
          {c.type}
          {arms ? ` · took ${arms}` : ""}
        </span>
      </div>
    </li>
  );
}

// Rollbacks lists the run's rollbacks in the order they ran (the reverse of their steps' start): which step each
// undid, whether it succeeded, and its error. Nothing when no rollback ran.
export function Rollbacks({ steps }: { steps: readonly RunStep[] }) {
  const list = steps.filter((s) => s.type === "rollback");
  if (list.length === 0) return null;
  const failed = list.some((s) => s.state === "rollback_failed");
  return (
    <>
      <h2>Rollbacks</h2>
      <p className="muted small">
        {failed
          ? "A rollback failed, which stopped the ones after it."
          : "The completed steps were undone, the last one first."}
      </p>
      <ol className="steps rollbacks" aria-label="Rollbacks, in the order they ran">
        {list.map((s, i) => {
          const state = nodeStateOfStep(s);
          return (
            <li key={i} className={`step state-${state}`}>
              <div className="step-head">
                <span className={`badge run-node-${state}`}>
                  {s.state === "rolled_back"
                    ? "rolled back"
                    : s.state === "rollback_failed"
                      ? "rollback failed"
                      : s.state}
                </span>{" "}
                undid <strong>{s.name}</strong>{" "}
                <span className="muted small">
                  {formatTime(s.startedAt)} · {formatDuration(s.startedAt, s.endedAt)}
                  {s.attempts > 1 ? ` · ${s.attempts} attempts` : ""}
                </span>
              </div>
              {s.error && (
                <p className="step-error">
                  <strong>{s.error.name}:</strong> {s.error.message}
                </p>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}
