// Live validation and preview: a while after the last edit, POST /api/ir/validate {ir}; when the IR is valid,
// POST /api/ir/compile {ir} for the generated TypeScript. Answers about an older IR than the latest are dropped.
// Checks start at most once every MIN_INTERVAL_MS, so typing stays within the API's `ir` rate class.
import { useEffect, useRef, useState } from "react";
import { ApiError, api, ok } from "../api/client";
import type { IrProblem, WorkflowIR } from "../ir/types";

export interface LiveChecks {
  // valid is null until the first answer
  valid: boolean | null;
  problems: IrProblem[];
  // the IR the problems are about (their paths index its nodes)
  checkedIr: WorkflowIR | null;
  code: string;
  // codeCurrent is false while the code shown is that of an earlier IR
  codeCurrent: boolean;
  pending: boolean;
  error: string;
}

export const CHECK_DELAY_MS = 400;
export const MIN_INTERVAL_MS = 1100;

export function useLiveChecks(ir: WorkflowIR, workflowId?: string): LiveChecks {
  const [state, setState] = useState<LiveChecks>({
    valid: null,
    problems: [],
    checkedIr: null,
    code: "",
    codeCurrent: false,
    pending: true,
    error: "",
  });
  const seq = useRef(0);
  const lastText = useRef("");
  const lastIr = useRef<WorkflowIR | null>(null);
  const lastWorkflowId = useRef<string | undefined>(undefined);
  const lastStart = useRef(0);
  const [retry, setRetry] = useState(0);
  useEffect(() => {
    // the IR is written out once per check and that text is the requests' body as it is. Before the first check
    // there is nothing to compare with, so it is written out in the check's own task, not in the one that rendered
    // the editor (at 5,000 nodes it is megabytes, and the opening's task has enough to do, decision 741).
    if (ir === lastIr.current && workflowId === lastWorkflowId.current) return;
    const suffix = "\u0000" + (workflowId ?? "");
    let text = lastText.current === "" ? null : JSON.stringify(ir) + suffix;
    if (text === lastText.current) return;
    const mine = ++seq.current;
    setState((s) => (s.pending && !s.codeCurrent ? s : { ...s, pending: true, codeCurrent: false }));
    const wait = Math.max(CHECK_DELAY_MS, lastStart.current + MIN_INTERVAL_MS - Date.now());
    const body = workflowId ? { ir, workflowId } : { ir };
    const timer = setTimeout(async () => {
      text ??= JSON.stringify(ir) + suffix;
      const irText = text.slice(0, text.length - suffix.length);
      lastText.current = text;
      lastIr.current = ir;
      lastWorkflowId.current = workflowId;
      lastStart.current = Date.now();
      // as bytes: fetch takes them as they are, where a string of megabytes is slow to become a request's body
      const bodyBytes = new TextEncoder().encode(
        workflowId ? `{"ir":${irText},"workflowId":${JSON.stringify(workflowId)}}` : `{"ir":${irText}}`,
      );
      const bodySerializer = () => bodyBytes;
      try {
        const v = await ok(api.POST("/api/ir/validate", { body, bodySerializer }));
        if (mine !== seq.current) return;
        const problems = v.errors;
        if (!v.valid) {
          setState((s) => ({
            ...s,
            valid: false,
            problems,
            checkedIr: ir,
            pending: false,
            codeCurrent: false,
            error: "",
          }));
          return;
        }
        setState((s) => ({ ...s, valid: true, problems, checkedIr: ir, error: "" }));
        const c = await ok(api.POST("/api/ir/compile", { body, bodySerializer }));
        if (mine !== seq.current) return;
        setState((s) => ({ ...s, code: c.code, codeCurrent: true, pending: false }));
      } catch (err) {
        if (mine !== seq.current) return;
        lastText.current = "";
        lastIr.current = null;
        if (err instanceof ApiError && err.status === 400 && err.details.length > 0) {
          const problems = err.details.map((d) => ({
            path: d.path ?? "",
            message: d.message ?? err.message,
            nodeId: d.nodeId,
            rule: d.rule ?? err.code,
          }));
          setState((s) => ({
            ...s,
            valid: false,
            problems,
            checkedIr: ir,
            pending: false,
            codeCurrent: false,
            error: "",
          }));
          return;
        }
        setState((s) => ({ ...s, pending: false, error: err instanceof Error ? err.message : String(err) }));
        if (err instanceof ApiError && err.status === 429) setTimeout(() => setRetry((r) => r + 1), 5000);
      }
    }, wait);
    return () => clearTimeout(timer);
  }, [ir, workflowId, retry]);
  return state;
}
