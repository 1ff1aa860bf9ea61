import type { RunStep } from "../../api/models";
import { formatDuration } from "../../app/ui";
import { nodeStateOfStep, stateLabel } from "../../runs/steps";

// Waterfall draws a run's steps on one time axis: each step a bar that starts where the step started, as long as it
// took (a running step up to now), coloured by its state, with its duration and attempts in words beside it.
export function Waterfall({ steps, now = Date.now() }: { steps: readonly RunStep[]; now?: number }) {
  const timed = steps.filter((s) => s.startedAt);
  if (timed.length === 0) return null;
  const start = (s: RunStep) => new Date(s.startedAt!).getTime();
  const end = (s: RunStep) => (s.endedAt ? new Date(s.endedAt).getTime() : now);
  const t0 = Math.min(...timed.map(start));
  const span = Math.max(1, Math.max(...timed.map(end)) - t0);
  return (
    <ol className="waterfall" aria-label="Waterfall of the steps">
      {timed.map((s, i) => {
        const state = nodeStateOfStep(s);
        const left = ((start(s) - t0) / span) * 100;
        const width = Math.max(0.5, ((end(s) - start(s)) / span) * 100);
        const took = formatDuration(s.startedAt, s.endedAt ?? new Date(now).toISOString());
        const attempts = s.attempts > 1 ? `, ${s.attempts} attempts` : "";
        return (
          <li key={i} aria-label={`${s.name}: ${stateLabel(state)}, ${took}${attempts}`}>
            <span className="wf-name" aria-hidden="true">
              {s.name}
            </span>
            <span className="wf-track" aria-hidden="true">
              <span
                className={`wf-bar run-node-${state}`}
                style={{ left: `${Math.min(left, 99.5)}%`, width: `${Math.min(width, 100 - left)}%` }}
              />
            </span>
            <span className="wf-time" aria-hidden="true">
              {took}
              {s.attempts > 1 ? ` · ×${s.attempts}` : ""}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
