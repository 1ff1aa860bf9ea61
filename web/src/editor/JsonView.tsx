import { useEffect, useId, useState } from "react";
import type { WorkflowIR } from "../ir/types";

export interface JsonViewProps {
  ir: WorkflowIR;
  onChange: (ir: WorkflowIR) => void;
  readOnly?: boolean;
}

// JsonView edits the IR as JSON text (the editor's JSON mode); a change that parses is passed on.
export function JsonView({ ir, onChange, readOnly }: JsonViewProps) {
  const id = useId();
  const [text, setText] = useState(() => JSON.stringify(ir, null, 2));
  const [error, setError] = useState("");
  useEffect(() => {
    setText((t) => {
      try {
        if (JSON.stringify(JSON.parse(t)) === JSON.stringify(ir)) return t;
      } catch {
        // the text is being edited and does not parse yet: keep it
        return t;
      }
      return JSON.stringify(ir, null, 2);
    });
  }, [ir]);
  return (
    <div className="ir-json-editor">
      <label htmlFor={id}>IR (JSON)</label>
      <textarea
        id={id}
        value={text}
        readOnly={readOnly}
        spellCheck={false}
        rows={30}
        onChange={(e) => {
          setText(e.target.value);
          try {
            const v = JSON.parse(e.target.value) as Partial<WorkflowIR> | null;
            if (!v || typeof v !== "object" || Array.isArray(v) || !Array.isArray(v.nodes) || !Array.isArray(v.edges)) {
              setError("The IR is an object with a nodes array and an edges array.");
              return;
            }
            onChange(v as WorkflowIR);
            setError("");
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          }
        }}
      />
      {error && <p role="alert">{error}</p>}
    </div>
  );
}
