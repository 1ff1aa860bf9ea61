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

// A larger IR is written out a slice of its nodes and edges at a time, each slice in a task of its own.
const SLICE_ITEMS = 1000;
const SLICE_BYTES = 256 * 1024;

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * writeInSlices answers the IR as JSON.stringify writes it (the same text for the same IR; key order aside, the
 * server reads it alike), writing its nodes and edges SLICE_ITEMS at a time with a task boundary between slices, so
 * that a 5,000-node workflow's first check does not block the page while it is written out (decision 741).
 */
export async function writeInSlices(ir: WorkflowIR): Promise<string> {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(ir)) {
    if (Array.isArray(value) && value.length > SLICE_ITEMS) {
      const slices: string[] = [];
      for (let i = 0; i < value.length; i += SLICE_ITEMS) {
        slices.push(
          value
            .slice(i, i + SLICE_ITEMS)
            .map((v: unknown) => JSON.stringify(v) ?? "null")
            .join(","),
        );
        await nextTask();
      }
      parts.push(`${JSON.stringify(key)}:[${slices.join(",")}]`);
      continue;
    }
    const text = JSON.stringify(value);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(",")}}`;
}

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
      if (text === null) {
        const written = await writeInSlices(ir);
        if (mine !== seq.current) return;
        text = written + suffix;
      }
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
      // handing megabytes to fetch is a task's work of its own
      if (bodyBytes.length > SLICE_BYTES) await nextTask();
      if (mine !== seq.current) return;
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
