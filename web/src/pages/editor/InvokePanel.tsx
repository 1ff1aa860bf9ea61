import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import type { InvokeResult, WorkflowFull } from "../../api/models";
import { ErrorMessage } from "../../app/ui";

type InvokeMethod = "POST" | "GET" | "PUT" | "DELETE";

// parseHeaders reads "Name: value" lines; empty lines are skipped.
function parseHeaders(text: string): { value: Record<string, string> } | { error: string } {
  const out: Record<string, string> = {};
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) return { error: `Line ${i + 1}: write a header as Name: value.` };
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { value: out };
}

// prettyBody shows a JSON answer indented, anything else as it came.
function prettyBody(a: InvokeResult): string {
  if (!a.bodyTruncated && (a.headers["content-type"] ?? "").includes("json")) {
    try {
      return JSON.stringify(JSON.parse(a.body), null, 2);
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return a.body;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

// InvokePanel calls the deployed function through edgeflow (POST /api/workflows/:id/invoke) and shows its answer;
// the curl command calls the function's URL directly from elsewhere (docs/deploy.md, "Functions"; decision 161).
export function InvokePanel({ full }: { full: WorkflowFull }) {
  const [method, setMethod] = useState<InvokeMethod>("POST");
  const [path, setPath] = useState("/");
  const [text, setText] = useState('{\n  "hello": "world"\n}');
  const [headerText, setHeaderText] = useState("");
  const [errors, setErrors] = useState<{ path?: string; body?: string; headers?: string }>({});
  const dep = full.activeDeployment;
  const invoke = useMutation({
    mutationFn: (req: { method: InvokeMethod; path: string; body?: unknown; headers: Record<string, string> }) =>
      ok(
        api.POST("/api/workflows/{workflowId}/invoke", {
          params: { path: { workflowId: full.workflow.id } },
          body: { connectionId: dep!.connectionId, ...req },
        }),
      ),
  });

  let body: unknown = undefined;
  let bodyError = "";
  if (method !== "GET" && text.trim() !== "") {
    try {
      body = JSON.parse(text);
    } catch (e) {
      bodyError = `Not JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  const bodyText = body === undefined ? "" : JSON.stringify(body);
  const url = dep ? dep.url.replace(/\/$/, "") + (path.startsWith("/") ? path : "/" + path) : "";
  const curl = dep
    ? ["curl -s", `-X ${method}`, bodyText && "-H 'Content-Type: application/json'", bodyText && `-d ${shellQuote(bodyText)}`, shellQuote(url)]
        .filter(Boolean)
        .join(" ")
    : "";

  const submit = () => {
    const e: typeof errors = {};
    if (!path.startsWith("/")) e.path = "Start the path with /.";
    else if (path.startsWith("//")) e.path = "The path must not start with //.";
    if (bodyError) e.body = bodyError;
    const h = parseHeaders(headerText);
    if ("error" in h) e.headers = h.error;
    setErrors(e);
    if (Object.keys(e).length > 0 || "error" in h) return;
    invoke.mutate({ method, path, ...(body === undefined ? {} : { body }), headers: h.value });
  };

  const answer = invoke.data;
  const answerOk = answer ? answer.status >= 200 && answer.status < 300 : false;
  return (
    <section className="panel" aria-labelledby="invoke-title">
      <h2 id="invoke-title">Invoke</h2>
      {!dep ? (
        <p className="muted">Deploy the function first: it answers at its deployment's URL.</p>
      ) : (
        <>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <div className="invoke-line">
              <div className="field">
                <label htmlFor="invoke-method">Method</label>
                <select id="invoke-method" value={method} onChange={(e) => setMethod(e.target.value as InvokeMethod)}>
                  <option>POST</option>
                  <option>GET</option>
                  <option>PUT</option>
                  <option>DELETE</option>
                </select>
              </div>
              <div className="field grow">
                <label htmlFor="invoke-path">Path</label>
                <input
                  id="invoke-path"
                  className="code"
                  value={path}
                  spellCheck={false}
                  onChange={(e) => {
                    setPath(e.target.value);
                    setErrors((x) => ({ ...x, path: undefined }));
                  }}
                  aria-invalid={errors.path ? true : undefined}
                  aria-describedby="invoke-path-hint"
                />
                <p id="invoke-path-hint" className="hint">
                  Below <code className="break">{dep.url}</code>; it may carry a query.
                </p>
                {errors.path && <p className="field-error">{errors.path}</p>}
              </div>
            </div>
            {method !== "GET" && (
              <div className="field">
                <label htmlFor="invoke-body">Body (JSON)</label>
                <textarea
                  id="invoke-body"
                  className="code"
                  rows={6}
                  spellCheck={false}
                  value={text}
                  onChange={(e) => {
                    setText(e.target.value);
                    setErrors((x) => ({ ...x, body: undefined }));
                  }}
                  aria-invalid={errors.body || bodyError ? true : undefined}
                  aria-describedby="invoke-body-hint"
                />
                <p id="invoke-body-hint" className="hint">
                  Sent as <code>application/json</code>; the function reads it as <code>event.payload</code>.
                </p>
                {(errors.body || bodyError) && <p className="field-error">{errors.body || bodyError}</p>}
              </div>
            )}
            <div className="field">
              <label htmlFor="invoke-headers">Headers (one Name: value a line, optional)</label>
              <textarea
                id="invoke-headers"
                className="code"
                rows={2}
                spellCheck={false}
                value={headerText}
                onChange={(e) => {
                  setHeaderText(e.target.value);
                  setErrors((x) => ({ ...x, headers: undefined }));
                }}
                aria-invalid={errors.headers ? true : undefined}
              />
              {errors.headers && <p className="field-error">{errors.headers}</p>}
            </div>
            <ErrorMessage error={invoke.error} title="Not invoked" />
            <button type="submit" className="primary" disabled={invoke.isPending}>
              {invoke.isPending ? "Invoking…" : "Invoke"}
            </button>
          </form>
          {answer && (
            <div className="invoke-answer" role="region" aria-label="Answer">
              <h3>Answer</h3>
              <p>
                <span className={answerOk ? "invoke-status ok" : "invoke-status failed"}>
                  Status {answer.status}
                </span>{" "}
                <span className="small muted">in {answer.durationMs} ms</span>
              </p>
              {Object.keys(answer.headers).length > 0 && (
                <dl className="invoke-headers small">
                  {Object.entries(answer.headers).map(([k, v]) => (
                    <div key={k}>
                      <dt>{k}</dt>
                      <dd>{v}</dd>
                    </div>
                  ))}
                </dl>
              )}
              <pre className="code invoke-body" tabIndex={0} aria-label="Answer body">
                {prettyBody(answer) || "(empty body)"}
              </pre>
              {answer.bodyTruncated && <p className="hint">The answer was over 1 MiB: only its first 1 MiB is shown.</p>}
            </div>
          )}
          <details className="invoke-elsewhere">
            <summary>Call it from elsewhere</summary>
            <p className="small">
              The function answers at its own URL <code className="break">{dep.url}</code>; this command sends the request above.
            </p>
            <div className="field">
              <label htmlFor="invoke-curl">Command</label>
              <textarea id="invoke-curl" className="code" rows={4} readOnly value={curl} />
              <button type="button" onClick={() => void navigator.clipboard?.writeText(curl)}>
                Copy command
              </button>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
