// PreviewPanel shows the TypeScript the server generates for the IR (POST /api/ir/compile), read-only.
import { useId } from "react";
import { CodeField } from "./CodeField";
import type { LiveChecks } from "./liveChecks";

export function PreviewPanel({ checks }: { checks: LiveChecks }) {
  const id = useId();
  let status: string;
  if (checks.error) status = `The preview could not be made: ${checks.error}`;
  else if (checks.codeCurrent) status = "Generated from the current workflow.";
  else if (checks.pending) status = "Updating…";
  else if (checks.valid === false)
    status =
      "Fix the problems to update the preview" + (checks.code ? "; this is the code of an earlier version." : ".");
  else status = "";
  return (
    <section className="preview" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Generated TypeScript</h2>
      <p className="muted" role="status">
        {status}
      </p>
      {checks.code && (
        <div className={checks.codeCurrent ? "" : "stale"}>
          <CodeField
            id={`${id}-code`}
            labelId={`${id}-h`}
            value={checks.code}
            language="typescript"
            readOnly
            lineNumbers
          />
        </div>
      )}
    </section>
  );
}
