import { useEffect, useId, useState } from "react";
import type { WorkflowIR } from "../ir/types";

export interface IrEditorProps {
  ir: WorkflowIR;
  onChange: (ir: WorkflowIR) => void;
  kind: "workflow" | "script";
  readOnly?: boolean;
}

// IrEditor edits a workflow's IR. This version edits the IR as JSON text; a change that parses is passed on.
export function IrEditor({ ir, onChange, readOnly }: IrEditorProps) {
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
            onChange(JSON.parse(e.target.value) as WorkflowIR);
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
