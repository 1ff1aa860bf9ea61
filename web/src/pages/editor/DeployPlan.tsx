import type { DeployPlan as Plan } from "../../api/models";

export type { Plan };

// InFlight is the deploy's choice for the runs in flight of earlier versions (docs/releases.md, "The in-flight
// choice of a deploy").
export type InFlight = "pin" | "migrate" | "drain";

// runs says "1 run" or "N runs".
export function runs(n: number): string {
  return n === 1 ? "1 run" : `${n} runs`;
}

// inFlightText says how many runs are in flight on the target and of which versions.
export function inFlightText(plan: Plan): string {
  const { total, byVersion } = plan.inFlight;
  if (total === 0) return "No runs in flight here.";
  const parts = byVersion.map((v) => `${v.count} of version ${v.number || "?"}`);
  return `${runs(total)} in flight here: ${parts.join(", ")}.`;
}

// changesTitle is the line above the list of step changes: what the plan compares.
export function changesTitle(plan: Plan, activeNumber: number | undefined): string {
  if (plan.activeVersionId === "") return `Nothing is deployed here yet: version ${plan.number} will be the first.`;
  if (plan.activeVersionId === plan.versionId) return `Version ${plan.number} is already active here.`;
  const from = activeNumber ? `version ${activeNumber}` : "the active version";
  if (plan.changes.length === 0) return `No step changes from ${from}.`;
  return `Step changes from ${from} to version ${plan.number}:`;
}

// DeployPlanView shows a deploy plan (GET …/deploy-plan): the runs in flight on the target, the durable step changes
// from the active version and whether the runs in flight could move onto the new code.
export function DeployPlanView({ plan, activeNumber }: { plan: Plan; activeNumber?: number }) {
  const compared = plan.activeVersionId !== "" && plan.activeVersionId !== plan.versionId;
  return (
    <section className="deploy-plan" aria-labelledby="deploy-plan-title">
      <h3 id="deploy-plan-title">Deploy plan</h3>
      <p className="small" aria-label="Runs in flight">
        {inFlightText(plan)}
      </p>
      <p className="small">{changesTitle(plan, activeNumber)}</p>
      {compared && plan.changes.length > 0 && (
        <ul className="small" aria-label="Step changes">
          {plan.changes.map((c, i) => (
            <li key={i}>
              <span className="stage">{c.kind}</span> <code>{c.step}</code> <span className="muted">{c.detail}</span>
            </li>
          ))}
        </ul>
      )}
      {compared &&
        plan.inFlight.total > 0 &&
        (plan.compatible ? (
          <p className="small ok">Compatible: the runs in flight could continue on the new code.</p>
        ) : (
          <div className="hint">
            <p className="small">
              <strong>Not compatible</strong> with the runs in flight: moved onto the new code, they would run a step
              again or put a saved result on another step.
            </p>
            <ul className="small" aria-label="Why not compatible">
              {plan.reasons.map((r, i) => (
                <li key={i}>{r}</li>
              ))}
            </ul>
          </div>
        ))}
    </section>
  );
}

// InFlightChoice offers pin, migrate and drain in plain words, with the runs in flight they concern; force is the
// "migrate anyway" box, offered when the plan says the runs in flight are not compatible.
export function InFlightChoice({
  plan,
  value,
  onChange,
  force,
  onForce,
}: {
  plan: Plan | undefined;
  value: InFlight;
  onChange: (v: InFlight) => void;
  force: boolean;
  onForce: (v: boolean) => void;
}) {
  const n = plan ? `The runs in flight (${plan.inFlight.total})` : "The runs in flight";
  const version = plan ? `version ${plan.number}` : "the new version";
  const choices: { value: InFlight; name: string; text: string }[] = [
    {
      value: "pin",
      name: "Pin (default)",
      text: `${n} finish on the version they started on; new runs start on ${version}. Each version with runs in flight keeps its own worker until they end.`,
    },
    {
      value: "migrate",
      name: "Migrate",
      text: `The runs in flight of the active version continue on ${version}'s code from where they are, as Cloudflare does by default.`,
    },
    {
      value: "drain",
      name: "Drain",
      text: `New triggers are refused until ${n.toLowerCase()} have finished; then ${version} is deployed. Cancel stops waiting and deploys nothing.`,
    },
  ];
  const incompatible = plan !== undefined && !plan.compatible;
  return (
    <fieldset className="in-flight">
      <legend>Runs in flight</legend>
      {choices.map((c) => (
        <label key={c.value} className="choice">
          <input
            type="radio"
            name="deploy-in-flight"
            value={c.value}
            checked={value === c.value}
            onChange={() => onChange(c.value)}
          />
          <span className="small">
            <strong>{c.name}</strong>: {c.text}
          </span>
        </label>
      ))}
      {value === "migrate" && incompatible && (
        <label className="choice">
          <input type="checkbox" checked={force} onChange={(e) => onForce(e.target.checked)} />
          <span className="small">
            Migrate anyway (the plan says the runs in flight are not compatible: a step may run again)
          </span>
        </label>
      )}
    </fieldset>
  );
}
