// RunsPage is /runs: the project's runs, newest first, narrowed by workflow, status, version, a creation time range
// and words, a page at a time; it follows run changes live (the run stream, or polling where there is none).
import { useCallback, useEffect, useState } from "react";
import { keepPreviousData, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation, useSearch } from "wouter";
import { useRunChanges } from "../api/live";
import { runKeys, runQueries } from "../api/queries/runs";
import { useAllWorkflows } from "../api/queries/useAllWorkflows";
import { workflowQueries } from "../api/queries/workflows";
import type { Run } from "../api/models";
import { Field } from "../app/fields";
import { Link } from "../app/Link";
import { ErrorMessage, formatDuration, formatTime, Loading, StatusBadge } from "../app/ui";
import {
  filterProblem,
  filtersFromSearch,
  NO_FILTERS,
  RUN_STATUSES,
  runsQuery,
  searchFromFilters,
  type RunFilters,
} from "../runs/filters";
import { UsageSummary } from "../runs/UsageSummary";
import { BulkBar } from "../runs/BulkBar";
import { toggle, type Choice } from "../runs/bulk";
import { paramsPreview, relativeTime } from "../runs/details";

// runHref is the address of a run's page.
export function runHref(r: Pick<Run, "id" | "workflowId">): string {
  return `/workflows/${r.workflowId}/runs/${r.id}`;
}

export default function RunsPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const qc = useQueryClient();
  const applied = filtersFromSearch(search);
  const [draft, setDraft] = useState<RunFilters>(applied);
  const [problem, setProblem] = useState("");
  // cursors of the pages before the current one, and the current page's
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1] ?? "";
  // the runs chosen for a bulk action, and the run ticked last (the start of a shift-click range)
  const [choice, setChoice] = useState<Choice>({ kind: "ticked", ids: [] });
  const [anchor, setAnchor] = useState("");
  useEffect(() => {
    setDraft(filtersFromSearch(search));
    setCursors([]);
    setChoice({ kind: "ticked", ids: [] });
  }, [search]);

  const mode = useRunChanges(
    useCallback(() => {
      void qc.invalidateQueries({ queryKey: runKeys.lists });
    }, [qc]),
  );
  const { workflows } = useAllWorkflows();
  const versions = useQuery({
    ...workflowQueries.versions(draft.workflowId),
    enabled: draft.workflowId !== "" && workflows.some((w) => w.id === draft.workflowId),
  });
  const runs = useQuery({
    ...runQueries.search(searchFromFilters(applied), cursor, runsQuery(applied, cursor)),
    placeholderData: keepPreviousData,
    refetchInterval: mode === "stream" ? false : 5_000,
  });
  const names = new Map(workflows.map((w) => [w.id, w.name]));
  const versionNumbers = useVersionNumbers(runs.data?.data ?? [], names);
  const now = Date.now();

  const apply = (f: RunFilters) => {
    const p = filterProblem(f);
    setProblem(p);
    if (p) return;
    const s = searchFromFilters(f);
    navigate(s ? `/runs?${s}` : "/runs");
  };
  const set = <K extends keyof RunFilters>(k: K, v: RunFilters[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const filtered = searchFromFilters(applied) !== "";

  return (
    <main className="page">
      <div className="page-head">
        <div>
          <h1>Runs</h1>
          <p className="muted small" role="status">
            {mode === "stream"
              ? "Live: runs update as they change."
              : mode === "polling"
                ? "Updating every 5 seconds."
                : ""}
          </p>
        </div>
      </div>
      <form
        className="run-filters"
        aria-label="Find runs"
        onSubmit={(e) => {
          e.preventDefault();
          apply(draft);
        }}
      >
        <Field
          id="runs-q"
          label="Search"
          type="search"
          value={draft.q}
          placeholder="words in params, output, error, step outputs or events"
          title="Whole words, any case, of the run's params, output, error, step outputs and the event payloads it received (a sensitive step's output is never searched)"
          onChange={(v) => set("q", v)}
        />
        <div className="field">
          <label htmlFor="runs-workflow">Workflow</label>
          <select
            id="runs-workflow"
            value={draft.workflowId}
            onChange={(e) => setDraft((d) => ({ ...d, workflowId: e.target.value, versionId: "" }))}
          >
            <option value="">All workflows</option>
            {workflows.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
            {draft.workflowId && !names.has(draft.workflowId) && (
              <option value={draft.workflowId}>{draft.workflowId} (deleted)</option>
            )}
          </select>
        </div>
        <div className="field">
          <label htmlFor="runs-status">Status</label>
          <select id="runs-status" value={draft.status} onChange={(e) => set("status", e.target.value)}>
            <option value="">Any status</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="runs-version">Version</label>
          <select
            id="runs-version"
            value={draft.versionId}
            onChange={(e) => set("versionId", e.target.value)}
            disabled={draft.workflowId === ""}
          >
            <option value="">{draft.workflowId === "" ? "Any version (choose a workflow)" : "Any version"}</option>
            {versions.data?.data.map((v) => (
              <option key={v.id} value={v.id}>
                Version {v.version}
              </option>
            ))}
            {draft.versionId && !versions.data?.data.some((v) => v.id === draft.versionId) && (
              <option value={draft.versionId}>{draft.versionId}</option>
            )}
          </select>
        </div>
        <Field id="runs-from" label="From" type="datetime-local" value={draft.from} onChange={(v) => set("from", v)} />
        <Field id="runs-to" label="To" type="datetime-local" value={draft.to} onChange={(v) => set("to", v)} />
        <div className="filter-actions">
          <button type="submit" className="primary">
            Find runs
          </button>
          {filtered && (
            <button type="button" onClick={() => apply(NO_FILTERS)}>
              Clear filters
            </button>
          )}
        </div>
      </form>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <UsageSummary filters={applied} />
      {runs.isPending && <Loading what="runs" />}
      <ErrorMessage error={runs.error} title="The runs could not be found" />
      {runs.data && runs.data.data.length === 0 && (
        <p className="muted">
          {filtered ? "No run matches these filters." : "No runs yet. Deploy a workflow, then run it."}
        </p>
      )}
      {runs.data && (
        <BulkBar filters={applied} choice={choice} onChoice={setChoice} empty={runs.data.data.length === 0} />
      )}
      {runs.data && runs.data.data.length > 0 && (
        <table className="runs-table">
          <caption className="sr-only">Runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="sr-only">Selected</span>
              </th>
              <th scope="col">Run</th>
              <th scope="col">Workflow</th>
              <th scope="col">Version</th>
              <th scope="col">Params</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.data.map((r) => (
              <tr key={r.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select run ${r.id}`}
                    checked={choice.kind === "matching" || choice.ids.includes(r.id)}
                    disabled={choice.kind === "matching"}
                    onChange={() => undefined}
                    onClick={(e) => {
                      const ids = choice.kind === "ticked" ? choice.ids : [];
                      const page = runs.data!.data.map((x) => x.id);
                      const next = toggle(ids, page, r.id, e.shiftKey, anchor);
                      setChoice({ kind: "ticked", ids: next.ticked });
                      setAnchor(next.anchor);
                    }}
                  />
                </td>
                <td>
                  <Link href={runHref(r)}>
                    <code>{r.id}</code>
                  </Link>
                  {r.restartOf && (
                    <span className="muted small"> restart{r.fromStep ? ` from ${r.fromStep}` : ""}</span>
                  )}
                </td>
                <td>
                  {r.deletedWorkflow ? (
                    <span>
                      {r.deletedWorkflow.name} <span className="muted small">(deleted)</span>
                    </span>
                  ) : (
                    <Link href={`/workflows/${r.workflowId}`}>{names.get(r.workflowId) ?? r.workflowId}</Link>
                  )}
                </td>
                <td>{versionNumbers.get(r.versionId) ? `v${versionNumbers.get(r.versionId)}` : "—"}</td>
                <td className="params-preview">
                  {paramsPreview(r.params) ? (
                    <code title={JSON.stringify(r.params, null, 2)}>{paramsPreview(r.params)}</code>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td>
                  <StatusBadge status={r.status} detail={r.statusDetail} />
                </td>
                <td>
                  <time dateTime={r.createdAt} title={formatTime(r.createdAt)}>
                    {relativeTime(r.createdAt, now)}
                  </time>
                </td>
                <td>{formatDuration(r.startedAt ?? r.createdAt, r.endedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="pager" aria-label="Pages of runs">
        {cursors.length > 0 && (
          <button type="button" onClick={() => setCursors((c) => c.slice(0, -1))}>
            Previous page
          </button>
        )}
        {runs.data?.nextCursor && (
          <button type="button" onClick={() => setCursors((c) => [...c, runs.data!.nextCursor!])}>
            Next page
          </button>
        )}
      </nav>
    </main>
  );
}

// useVersionNumbers maps the version ids of the runs shown to their numbers, from the versions of each workflow the
// runs belong to (workflowQueries.versions: its newest 100, read once per workflow and shared with the editor). Only
// the workflows the project still has are asked: a deleted one's runs may still be listed, its versions are gone.
function useVersionNumbers(runs: Run[], workflows: Map<string, string>): Map<string, number> {
  const workflowIds = [...new Set(runs.map((r) => r.workflowId))].filter((id) => workflows.has(id));
  const lists = useQueries({ queries: workflowIds.map((id) => workflowQueries.versions(id)) });
  const out = new Map<string, number>();
  for (const l of lists) for (const v of l.data?.data ?? []) out.set(v.id, v.version);
  return out;
}
