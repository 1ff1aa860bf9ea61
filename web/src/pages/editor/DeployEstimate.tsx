import { useQuery } from "@tanstack/react-query";
import { workflowQueries } from "../../api/queries/workflows";

// RUNS_PER_MONTH is the month the deploy dialog prices; the API prices any (GET …/estimate?runsPerMonth=).
const RUNS_PER_MONTH = 100_000;

// DeployEstimate shows, under the deploy form, what a month of runs of the version costs on the chosen connection's
// plan: the steps of a run and the month's price, with the pricing's date (docs/deploy.md, "Cost estimate").
export function DeployEstimate({
  workflowId,
  versionId,
  connectionId,
}: {
  workflowId: string;
  versionId: string;
  connectionId: string;
}) {
  const est = useQuery({
    ...workflowQueries.estimate(workflowId, versionId, connectionId, RUNS_PER_MONTH),
    enabled: versionId !== "" && connectionId !== "",
  });
  if (!est.data) return null;
  const e = est.data;
  const steps = (r: { min: number; max?: number | null }) =>
    r.max === null || r.max === undefined ? `at least ${r.min}` : r.max === r.min ? `${r.min}` : `${r.min}–${r.max}`;
  const cost =
    e.plan === "free"
      ? e.monthly.billable > 0
        ? `${e.monthly.billable.toLocaleString()} steps past the Free plan's allowance`
        : "within the Free plan's allowance"
      : `$${e.monthly.usd.toFixed(2)} a month`;
  return (
    <div className="hint" aria-label="Cost estimate">
      <p>
        {steps(e.billedStepsPerRun)} billed steps a run ({e.plan} plan); {RUNS_PER_MONTH.toLocaleString()} runs a month:{" "}
        {cost} <span className="muted">(pricing of {e.pricing.date})</span>
      </p>
      {e.warnings.map((w, i) => (
        <p key={i} className="muted small">
          {w.message}
        </p>
      ))}
    </div>
  );
}
