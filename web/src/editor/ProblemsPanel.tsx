// ProblemsPanel lists the validation problems of the IR; pressing one selects and focuses its node and field.
import { useId } from "react";
import type { IrProblem, WorkflowIR } from "../ir/types";
import { nodeIdOfProblem } from "./problemStore";

export interface ProblemsPanelProps {
  problems: IrProblem[];
  ir: WorkflowIR | null; // the IR the problems are about
  valid: boolean | null;
  pending: boolean;
  error: string;
  onPick: (nodeId: string, path: string) => void;
}

export function ProblemsPanel(p: ProblemsPanelProps) {
  const id = useId();
  const names = new Map((p.ir?.nodes ?? []).map((n) => [n.id, n.name]));
  return (
    <section className="problems" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>
        Problems <span className="count">({p.problems.length})</span>
        <span className="muted problems-status" role="status">
          {p.error
            ? ` Validation could not run: ${p.error}`
            : p.pending
              ? " Checking…"
              : p.valid
                ? " The workflow is valid."
                : ""}
        </span>
      </h2>
      {p.problems.length === 0 ? (
        <p className="muted">No problems.</p>
      ) : (
        <ul>
          {p.problems.map((q, i) => {
            const nodeId = p.ir ? nodeIdOfProblem(p.ir, q) : q.nodeId;
            const where = nodeId ? `${names.get(nodeId) ?? nodeId}: ` : "";
            return (
              <li key={i}>
                {nodeId ? (
                  <button type="button" className="problem" onClick={() => p.onPick(nodeId, q.path)}>
                    <span className="problem-where">{where}</span>
                    {q.message}
                    <span className="problem-path">
                      {" "}
                      {q.path || "(document)"} · {q.rule}
                    </span>
                  </button>
                ) : (
                  <span className="problem">
                    {q.message}
                    <span className="problem-path">
                      {" "}
                      {q.path || "(document)"} · {q.rule}
                    </span>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
