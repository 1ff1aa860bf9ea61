import type { RunStep } from "../../api/models";
import { formatDuration, formatTime, Json } from "../../app/ui";
import { nodeStateOfStep } from "../../runs/steps";

// StepTimeline lists the run's steps in execution order with their state, times, attempts, output and error.
export function StepTimeline({ steps }: { steps: readonly RunStep[] }) {
  if (steps.length === 0) return <p className="muted">No step has run yet.</p>;
  return (
    <ol className="steps" aria-label="Steps, in execution order">
      {steps.map((s, i) => {
        const state = nodeStateOfStep(s);
        return (
          <li key={i} className={`step state-${state}`}>
            <div className="step-head">
              <span className={`badge run-node-${state}`}>{s.state}</span> <strong>{s.name}</strong>{" "}
              <span className="muted small">
                {s.type} · {formatTime(s.startedAt)} · {formatDuration(s.startedAt, s.endedAt)}
                {s.attempts > 1 ? ` · ${s.attempts} attempts` : ""}
              </span>
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
          </li>
        );
      })}
    </ol>
  );
}
