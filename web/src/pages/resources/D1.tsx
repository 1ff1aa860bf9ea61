// /resources/d1/:connectionId/:databaseId: the database's tables (read from sqlite_master through the query route)
// and a SQL console: CodeMirror with SQL highlighting, ? parameters as a JSON array or one field each, a results
// grid paged in the browser (only the visible page is rendered) and the query's time. A viewer's statements run
// read-only: the API refuses writes and the console shows its words (docs/decisions.md 81).
import { useMemo, useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useLocation, useSearch } from "wouter";
import { d1Query, resourceQueries } from "../../api/queries/resources";
import { DataTable, Field } from "../../app/fields";
import { useSession } from "../../app/session";
import { Dialog, ErrorMessage, Loading } from "../../app/ui";
import { Crumbs, useConnections } from "./common";
import { cellText, countPlaceholders, destructiveStatements, parseParams } from "./format";
import { SqlEditor } from "./SqlEditor";
import type { D1Result } from "../../api/models";
import "./resources.css";

export const pageSize = 50;

export default function D1Page({ connectionId, databaseId }: { connectionId: string; databaseId: string }) {
  const params = new URLSearchParams(useSearch());
  const [location, navigate] = useLocation();
  const conns = useConnections();
  const connection = conns.shown.find((c) => c.id === connectionId);
  const session = useSession();
  const role = session.data?.organizations.find((o) => o.id === session.data?.activeOrganizationId)?.role;
  const readOnly = role === "viewer";

  const db = useQuery(resourceQueries.d1DatabaseName(connectionId, databaseId));
  const tables = useQuery(resourceQueries.d1Tables(connectionId, databaseId));
  const tableNames = useMemo(() => (tables.data?.rows ?? []).map((r) => String(r[0])), [tables.data]);

  const [sqlText, setSqlText] = useState(params.get("sql") ?? "");
  const [paramMode, setParamMode] = useState<"json" | "fields">("json");
  const [paramsJSON, setParamsJSON] = useState("");
  const [fields, setFields] = useState<string[]>([]);
  const [paramError, setParamError] = useState("");
  const [sqlError, setSqlError] = useState("");
  const [pageIndex, setPageIndex] = useState(0);
  const [elapsed, setElapsed] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<{ body: { sql: string; params?: unknown[] }; kinds: string[] } | null>(null);
  const started = useRef(0);
  const placeholders = useMemo(() => countPlaceholders(sqlText), [sqlText]);

  const run = useMutation({
    mutationFn: (b: { sql: string; params?: unknown[] }) => d1Query(connectionId, databaseId, b),
    onMutate: (b) => {
      started.current = performance.now();
      setElapsed(null);
      // the statement stays in the address, so that a reload or a shared link opens the console with it (not run)
      const q = new URLSearchParams({ sql: b.sql }).toString();
      if (q.length < 4000) navigate(`${location}?${q}`, { replace: true });
    },
    onSettled: () => setElapsed(Math.round(performance.now() - started.current)),
    onSuccess: (_r, b) => {
      setPageIndex(0);
      if (/^\s*(create|drop|alter)\b/i.test(b.sql)) void tables.refetch();
    },
  });

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (sqlText.trim() === "") {
      run.reset();
      return setSqlError("Write a SQL statement first.");
    }
    setSqlError("");
    let p: unknown[] | undefined;
    if (paramMode === "json") {
      const r = parseParams(paramsJSON);
      if (r.error) return setParamError(r.error);
      p = r.params;
    } else if (placeholders > 0) {
      p = Array.from({ length: placeholders }, (_, i) => fieldValue(fields[i] ?? ""));
    }
    setParamError("");
    const body = { sql: sqlText, ...(p ? { params: p } : {}) };
    const kinds = destructiveStatements(sqlText);
    if (kinds.length > 0) return setConfirm({ body, kinds });
    run.mutate(body);
  };
  const runRef = useRef(submit);
  runRef.current = submit;

  const name = db.data ?? databaseId;
  const result = run.data;
  const pages = result ? Math.max(1, Math.ceil(result.rows.length / pageSize)) : 0;
  const shown = result ? result.rows.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize) : [];

  const openTable = (t: string) => {
    const s = `SELECT * FROM "${t.replace(/"/g, '""')}" LIMIT 1000`;
    setSqlText(s);
    setParamsJSON("");
    setParamError("");
    setSqlError("");
    run.mutate({ sql: s });
  };

  return (
    <main className="page resources">
      <Crumbs connection={connection} connectionId={connectionId}>
        <li aria-current="page">D1 database {name}</li>
      </Crumbs>
      <div className="page-head">
        <div>
          <h1>{name}</h1>
          <p className="muted small">
            D1 database <code>{databaseId}</code>
          </p>
        </div>
      </div>
      <div className="d1-layout">
        <section aria-labelledby="tables-heading" className="d1-tables">
          <h2 id="tables-heading">Tables</h2>
          {tables.isPending && <Loading what="tables" />}
          <ErrorMessage error={tables.error} title="The tables could not be read" />
          {tables.isSuccess && tableNames.length === 0 && <p className="muted">The database has no table.</p>}
          <ul className="plain">
            {(tables.data?.rows ?? []).map((r) => (
              <li key={String(r[0])}>
                <button type="button" className="link-button" onClick={() => openTable(String(r[0]))} aria-label={`Show the rows of ${String(r[0])}`}>
                  <code>{String(r[0])}</code>
                </button>
                {r[1] === "view" && <span className="muted small"> view</span>}
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="console-heading" className="d1-console">
          <h2 id="console-heading">SQL console</h2>
          {readOnly && (
            <p className="note" id="sql-readonly">
              Your role in the organization is <strong>viewer</strong>: statements run read-only, and the database refuses any
              that would change it.
            </p>
          )}
          <form onSubmit={submit} noValidate>
            <div className="field">
              <label id="sql-label" htmlFor="sql-editor">
                SQL
              </label>
              <SqlEditor
                id="sql-editor"
                labelId="sql-label"
                describedBy={readOnly ? "sql-hint sql-error sql-readonly" : "sql-hint sql-error"}
                value={sqlText}
                onChange={setSqlText}
                onRun={() => runRef.current()}
                tables={tableNames}
              />
              <p id="sql-hint" className="hint">
                One or more statements; the last one's rows are shown. Ctrl-Enter (⌘-Enter) runs them.
              </p>
              <p id="sql-error" className="field-error" role="alert" hidden={!sqlError}>
                {sqlError}
              </p>
            </div>
            <fieldset className="params">
              <legend>Parameters{placeholders > 0 ? ` (${placeholders} in the statement)` : ""}</legend>
              <div className="param-mode">
                <label className="radio">
                  <input type="radio" name="param-mode" checked={paramMode === "json"} onChange={() => setParamMode("json")} /> JSON array
                </label>
                <label className="radio">
                  <input type="radio" name="param-mode" checked={paramMode === "fields"} onChange={() => setParamMode("fields")} /> One field per ?
                </label>
              </div>
              {paramMode === "json" ? (
                <Field
                  id="sql-params"
                  label="Values for the ? placeholders, in order"
                  value={paramsJSON}
                  spellCheck={false}
                  placeholder='[42, "text"]'
                  error={paramError}
                  onChange={setParamsJSON}
                />
              ) : placeholders === 0 ? (
                <p className="muted small">The statement has no ? placeholder.</p>
              ) : (
                <div className="param-fields">
                  {Array.from({ length: placeholders }, (_, i) => (
                    <div className="field" key={i}>
                      <label htmlFor={`sql-param-${i}`}>Parameter {i + 1}</label>
                      <input
                        id={`sql-param-${i}`}
                        value={fields[i] ?? ""}
                        spellCheck={false}
                        onChange={(e) => setFields((f) => Object.assign([...f], { [i]: e.target.value }))}
                      />
                    </div>
                  ))}
                  <p className="hint">A field is read as JSON when it is JSON (42, true, null, "text"), as text otherwise.</p>
                </div>
              )}
            </fieldset>
            <div className="actions start">
              <button type="submit" className="primary" disabled={run.isPending}>
                {run.isPending ? "Running…" : "Run"}
              </button>
            </div>
          </form>
          <ErrorMessage error={run.error} title="The query failed" />
          {result && (
            <Results result={result} elapsed={elapsed} pageIndex={pageIndex} pages={pages} setPageIndex={setPageIndex} rows={shown} />
          )}
        </section>
      </div>
      {confirm && (
        <Dialog title="Run statements that change data?" onClose={() => setConfirm(null)}>
          <p>
            The SQL holds {confirm.kinds.join(", ")} {confirm.kinds.length === 1 ? "statement" : "statements"}: {" "}
            {confirm.kinds.includes("DROP") || confirm.kinds.includes("DELETE") ? "rows or tables may be deleted" : "stored rows may change"}{" "}
            in <strong>{name}</strong>, and a database cannot undo them.
          </p>
          <pre className="text-view">{confirm.body.sql}</pre>
          <div className="actions">
            <button type="button" onClick={() => setConfirm(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="danger primary"
              onClick={() => {
                const b = confirm.body;
                setConfirm(null);
                run.mutate(b);
              }}
            >
              Run statements
            </button>
          </div>
        </Dialog>
      )}
    </main>
  );
}

// fieldValue reads one parameter field: JSON when it parses, the text itself otherwise.
function fieldValue(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

function Results({
  result,
  elapsed,
  pageIndex,
  pages,
  setPageIndex,
  rows,
}: {
  result: D1Result;
  elapsed: number | null;
  pageIndex: number;
  pages: number;
  setPageIndex: (n: number) => void;
  rows: unknown[][];
}) {
  const total = result.rows.length;
  const first = pageIndex * pageSize;
  return (
    <section aria-labelledby="results-heading" className="d1-results">
      <h3 id="results-heading">Results</h3>
      <p className="muted small" role="status">
        {total === 1 ? "1 row" : `${total.toLocaleString("en")} rows`}
        {elapsed !== null && ` · ${elapsed} ms`}
        {` · database ${result.meta.duration.toFixed(2)} ms`}
        {result.meta.changes > 0 && ` · ${result.meta.changes} changed`}
        {` · ${result.meta.rowsRead} read, ${result.meta.rowsWritten} written`}
      </p>
      {result.columns.length > 0 && (
        <div className="grid-wrap" tabIndex={0} role="region" aria-label="Result rows">
          <DataTable className="grid" columns={result.columns}>
              {rows.map((r, i) => (
                <tr key={first + i}>
                  {r.map((v, j) => (
                    <td key={j} className={v === null ? "null" : typeof v === "number" ? "num" : undefined}>
                      {cellText(v)}
                    </td>
                  ))}
                </tr>
              ))}
          </DataTable>
        </div>
      )}
      {pages > 1 && (
        <nav className="pager" aria-label="Result pages">
          <button type="button" onClick={() => setPageIndex(0)} disabled={pageIndex === 0}>
            First page
          </button>
          <button type="button" onClick={() => setPageIndex(pageIndex - 1)} disabled={pageIndex === 0}>
            Previous page
          </button>
          <span>
            Rows {(first + 1).toLocaleString("en")}–{Math.min(first + pageSize, total).toLocaleString("en")} of {total.toLocaleString("en")} · page{" "}
            {pageIndex + 1} of {pages}
          </span>
          <button type="button" onClick={() => setPageIndex(pageIndex + 1)} disabled={pageIndex >= pages - 1}>
            Next page
          </button>
          <button type="button" onClick={() => setPageIndex(pages - 1)} disabled={pageIndex >= pages - 1}>
            Last page
          </button>
        </nav>
      )}
    </section>
  );
}
