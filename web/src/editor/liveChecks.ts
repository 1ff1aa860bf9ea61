// Live validation and preview: a while after the last edit, POST /api/ir/validate {ir}; when the IR is valid,
// POST /api/ir/compile {ir} for the generated TypeScript. Answers to an older IR than the latest are dropped.
import { useEffect, useRef, useState } from "react";
import { ApiError, api } from "../api/client";
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

export function useLiveChecks(ir: WorkflowIR): LiveChecks {
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
  useEffect(() => {
    const text = JSON.stringify(ir);
    if (text === lastText.current) return;
    const mine = ++seq.current;
    setState((s) => (s.pending && !s.codeCurrent ? s : { ...s, pending: true, codeCurrent: false }));
    const timer = setTimeout(async () => {
      lastText.current = text;
      try {
        const v = await api.post<{ valid: boolean; errors: IrProblem[] | null }>("/api/ir/validate", { ir });
        if (mine !== seq.current) return;
        const problems = v.errors ?? [];
        if (!v.valid) {
          setState((s) => ({ ...s, valid: false, problems, checkedIr: ir, pending: false, codeCurrent: false, error: "" }));
          return;
        }
        setState((s) => ({ ...s, valid: true, problems, checkedIr: ir, error: "" }));
        const c = await api.post<{ code: string }>("/api/ir/compile", { ir });
        if (mine !== seq.current) return;
        setState((s) => ({ ...s, code: c.code, codeCurrent: true, pending: false }));
      } catch (err) {
        if (mine !== seq.current) return;
        lastText.current = "";
        if (err instanceof ApiError && err.details.length > 0) {
          const problems = err.details.map((d) => ({ path: d.path ?? "", message: d.message ?? err.message, nodeId: d.nodeId, rule: d.rule ?? err.code }));
          setState((s) => ({ ...s, valid: false, problems, checkedIr: ir, pending: false, codeCurrent: false, error: "" }));
          return;
        }
        setState((s) => ({ ...s, pending: false, error: err instanceof Error ? err.message : String(err) }));
      }
    }, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ir]);
  return state;
}
