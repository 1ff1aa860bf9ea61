// UsageSummary shows the tokens that the agent nodes of the runs a search selects spent, in all and per workflow
// (GET /api/runs/usage); nothing when none of those runs made a model call.
import { useQuery } from "@tanstack/react-query";
import { runQueries } from "../api/queries/runs";
import { Link } from "../app/Link";
import { searchFromFilters, usageQuery, type RunFilters } from "./filters";

const count = new Intl.NumberFormat("en");

export function UsageSummary({ filters }: { filters: RunFilters }) {
  const usage = useQuery(runQueries.usage(searchFromFilters(filters), usageQuery(filters)));
  const u = usage.data;
  if (!u || u.runs === 0) return null;
  const runs = (n: number) => `${count.format(n)} ${n === 1 ? "run" : "runs"}`;
  return (
    <section className="run-usage" aria-label="Token usage">
      <p>
        <strong>Token usage:</strong> {count.format(u.inputTokens)} in, {count.format(u.outputTokens)} out across{" "}
        {runs(u.runs)} with model calls{u.partial ? " (the newest 100,000 of them)" : ""}.
      </p>
      {u.workflows.length > 1 && (
        <ul className="muted small">
          {u.workflows.map((w) => (
            <li key={w.workflowId}>
              <Link href={`/workflows/${w.workflowId}`}>{w.workflowName || w.workflowId}</Link>:{" "}
              {count.format(w.inputTokens)} in, {count.format(w.outputTokens)} out ({runs(w.runs)})
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
