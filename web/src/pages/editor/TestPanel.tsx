import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { parseJsonObject } from "../../api/forms";
import type { TestResult } from "../../api/models";
import { ErrorMessage } from "../../app/ui";
import type { WorkflowIR } from "../../ir/types";
import { preview } from "../../editor/stepValues";

// TestPanel runs the editor's current IR, saved or not, once on the server's local edge (POST
// /api/workflows/{id}/test) with JSON params and per-node mocks; the workflow's pinned outputs answer for their nodes
// unless turned off. onResult hands the result to the editor, which shows each node's output on the canvas.
export function TestPanel({
  workflowId,
  ir,
  pinnedCount,
  onResult,
}: {
  workflowId: string;
  ir: WorkflowIR;
  pinnedCount: number;
  onResult: (r: TestResult) => void;
}) {
  const [params, setParams] = useState("{\n  \n}");
  const [mocks, setMocks] = useState("");
  const [usePinned, setUsePinned] = useState(true);
  const [errors, setErrors] = useState<{ params?: string; mocks?: string }>({});
  const test = useMutation({
    mutationFn: (body: { params: Record<string, unknown>; mocks: Record<string, unknown> }) =>
      ok(
        api.POST("/api/workflows/{workflowId}/test", {
          params: { path: { workflowId } },
          body: { ir: ir as unknown as Record<string, unknown>, params: body.params, mocks: body.mocks, usePinned },
        }),
      ),
    onSuccess: onResult,
  });
  const res = test.data;
  return (
    <section className="panel" aria-labelledby="test-title">
      <h2 id="test-title">Test</h2>
      <p className="muted small">
        Runs the workflow as it is in the editor, saved or not, once on the server&apos;s local edge. Nothing is
        deployed or kept; each node then shows its output on the canvas.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const p = parseJsonObject(params);
          const m = parseJsonObject(mocks);
          const next = { params: "error" in p ? p.error : undefined, mocks: "error" in m ? m.error : undefined };
          setErrors(next);
          if ("error" in p || "error" in m) return;
          test.mutate({ params: p.value, mocks: m.value });
        }}
      >
        <div className="field">
          <label htmlFor="test-params">Params (JSON)</label>
          <textarea
            id="test-params"
            className="code"
            rows={5}
            spellCheck={false}
            value={params}
            onChange={(e) => setParams(e.target.value)}
            aria-invalid={errors.params ? true : undefined}
          />
          {errors.params && <p className="field-error">{errors.params}</p>}
        </div>
        <div className="field">
          <label htmlFor="test-mocks">Mocks (JSON: node id → output)</label>
          <textarea
            id="test-mocks"
            className="code"
            rows={3}
            spellCheck={false}
            placeholder='{"load": {"total": 42}}'
            value={mocks}
            onChange={(e) => setMocks(e.target.value)}
            aria-invalid={errors.mocks ? true : undefined}
            aria-describedby="test-mocks-hint"
          />
          <p id="test-mocks-hint" className="hint">
            A mocked step answers its output instead of running.
          </p>
          {errors.mocks && <p className="field-error">{errors.mocks}</p>}
        </div>
        <div className="field">
          <label>
            <input type="checkbox" checked={usePinned} onChange={(e) => setUsePinned(e.target.checked)} /> Use pinned
            outputs ({pinnedCount} {pinnedCount === 1 ? "node" : "nodes"})
          </label>
        </div>
        <ErrorMessage error={test.error} title="The test did not run" />
        <button type="submit" className="primary" disabled={test.isPending}>
          {test.isPending ? "Testing…" : "Run test"}
        </button>
      </form>
      {res && !test.isPending && (
        <div className="test-result" role="status">
          <p>
            <span className={`badge status-${res.status}`}>{res.status}</span> in {res.durationMs} ms
          </p>
          {res.error !== null && <p className="field-error">{res.error}</p>}
          {res.error === null && (
            <p className="small">
              Output: <code>{preview(res.output, 200)}</code>
            </p>
          )}
          <ol className="test-steps">
            {res.steps.map((s) => (
              <li key={s.nodeId + s.name}>
                <code>{s.nodeId}</code> <span className={`badge status-${s.state}`}>{s.state}</span>{" "}
                {s.error ? s.error.message : preview(s.output, 60)}
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
