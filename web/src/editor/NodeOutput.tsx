// The value a node gave in the editor's last test run: a one-line badge on its box (NodeValueBadge) and the whole
// output or error in its panel, with the pinned output and the button that pins or unpins it (NodeOutputSection).
import { useId } from "react";
import { preview, useStepValues } from "./stepValues";

export function NodeValueBadge({ nodeId }: { nodeId: string }) {
  const { values, pinned } = useStepValues();
  const v = values.get(nodeId);
  const pin = Object.prototype.hasOwnProperty.call(pinned, nodeId);
  if (!v) return pin ? <div className="efn-value efn-value-pinned">📌 pinned</div> : null;
  if (v.error !== null)
    return (
      <div className="efn-value efn-value-errored" title={v.error}>
        ✗ {preview(v.error, 40)}
      </div>
    );
  return (
    <div className={"efn-value efn-value-" + (v.pinned ? "pinned" : v.state)} title={preview(v.output, 2000)}>
      {v.pinned ? "📌" : v.state === "mocked" ? "◇" : "→"} {preview(v.output, 40)}
    </div>
  );
}

export function NodeOutputSection({ nodeId, readOnly }: { nodeId: string; readOnly?: boolean }) {
  const base = useId();
  const { values, pinned, pin } = useStepValues();
  const v = values.get(nodeId);
  const isPinned = Object.prototype.hasOwnProperty.call(pinned, nodeId);
  if (!v && !isPinned) return null;
  return (
    <section className="node-output" aria-labelledby={`${base}-h`}>
      <h3 id={`${base}-h`}>Test output</h3>
      {v && v.error !== null && (
        <p className="field-error" role="status">
          {v.error}
        </p>
      )}
      {v && v.error === null && (
        <>
          <p className="muted small">
            {v.pinned
              ? "Answered by its pinned output"
              : v.state === "mocked"
                ? "Answered by a mock"
                : `Step ${v.state}`}{" "}
            in the last test.
          </p>
          <pre className="code node-output-value" tabIndex={0} aria-label="Output of the last test">
            {JSON.stringify(v.output, null, 2) ?? "undefined"}
          </pre>
        </>
      )}
      {isPinned && (!v || !v.pinned) && (
        <>
          <p className="muted small">Pinned output (tests use it instead of running the node):</p>
          <pre className="code node-output-value" tabIndex={0} aria-label="Pinned output">
            {JSON.stringify(pinned[nodeId], null, 2)}
          </pre>
        </>
      )}
      {pin && !readOnly && (
        <div className="actions">
          {isPinned ? (
            <button type="button" onClick={() => pin(nodeId, undefined)}>
              Unpin output
            </button>
          ) : (
            v &&
            v.error === null && (
              <button type="button" onClick={() => pin(nodeId, v.output)}>
                Pin this output
              </button>
            )
          )}
        </div>
      )}
    </section>
  );
}
