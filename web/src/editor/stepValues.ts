// Step values: what each node gave in the editor's last test run (POST /api/workflows/{id}/test), shown on its box on
// the canvas, in its panel, and beside the paths `{{` completion suggests; and the workflow's pinned outputs.
import { createContext, useContext } from "react";
import type { RunStep } from "../api/models";
import type { ExpressionOption } from "../ir/expressions";

export interface StepValue {
  // state is the step's state in the test: complete, errored, mocked (a mock or a pinned output answered), …
  state: string;
  output: unknown;
  error: string | null;
  // pinned: the workflow's pinned output answered for the node.
  pinned: boolean;
}

export interface StepValuesValue {
  // values by node id, from the last test (empty before one): drawn on the canvas and in node panels
  values: ReadonlyMap<string, StepValue>;
  // completionValues: what `{{` completion shows beside each path — the last test's values, or before a test those
  // of the workflow's last run
  completionValues: ReadonlyMap<string, StepValue>;
  // pinned outputs by node id, as the server keeps them
  pinned: Readonly<Record<string, unknown>>;
  // pin sets (output) or removes (undefined) a node's pinned output; absent where pins cannot be changed
  pin?: (nodeId: string, output: unknown) => void;
}

const NO_VALUES: StepValuesValue = { values: new Map(), completionValues: new Map(), pinned: {} };

export const StepValuesContext = createContext<StepValuesValue>(NO_VALUES);

export function useStepValues(): StepValuesValue {
  return useContext(StepValuesContext);
}

// stepValuesOf maps the steps of a test result or of a run to values by node id (the last step of a node wins: a
// loop's body runs as several steps). A step whose output was cut (outputTruncated) gives no value.
export function stepValuesOf(result: { steps?: RunStep[]; pinned?: string[] }): Map<string, StepValue> {
  const pinned = new Set(result.pinned ?? []);
  const out = new Map<string, StepValue>();
  for (const s of result.steps ?? []) {
    if (s.outputTruncated && !s.error) continue;
    out.set(s.nodeId, {
      state: s.state,
      output: s.output,
      error: s.error ? `${s.error.name}: ${s.error.message}` : null,
      pinned: pinned.has(s.nodeId),
    });
  }
  return out;
}

// preview writes a value in one short line: JSON, cut at max characters with an ellipsis.
export function preview(value: unknown, max = 60): string {
  let text: string;
  if (value === undefined) text = "undefined";
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

// valueAt reads an expression path (node.field[0].more) from the values; found is false when the node has no value
// or the path leads nowhere in it.
export function valueAt(values: ReadonlyMap<string, StepValue>, path: string): { found: boolean; value?: unknown } {
  const parts = path.match(/[^.[\]]+/g) ?? [];
  const head = parts.shift();
  const v = head === undefined ? undefined : values.get(head);
  if (!v || v.error !== null) return { found: false };
  let cur: unknown = v.output;
  for (const p of parts) {
    if (cur === null || typeof cur !== "object") return { found: false };
    if (!Object.prototype.hasOwnProperty.call(cur, p)) return { found: false };
    cur = (cur as Record<string, unknown>)[p];
  }
  return { found: true, value: cur };
}

// withValues gives each option whose path has a value in the last test that value, as a preview.
export function withValues(options: ExpressionOption[], values: ReadonlyMap<string, StepValue>): ExpressionOption[] {
  if (values.size === 0) return options;
  return options.map((o) => {
    const at = valueAt(values, o.path);
    return at.found ? { ...o, value: preview(at.value, 40) } : o;
  });
}
