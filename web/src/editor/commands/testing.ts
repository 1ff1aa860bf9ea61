// Helpers for the actions' tests: a small IR, a selection and an action context.
import type { WorkflowIR } from "../../ir/types";
import { emptyHistory } from "../history";
import type { ActionContext, ActionResult, Selection } from "./types";

export function sampleIR(): WorkflowIR {
  return {
    metadata: { name: "t", version: 1, createdAt: "", updatedAt: "" },
    nodes: [
      { id: "a", type: "step", name: "A", position: { x: 0, y: 0 }, version: "1.0.0", data: { code: "return 1;" } },
      {
        id: "b",
        type: "sleep",
        name: "B",
        position: { x: 240, y: 0 },
        version: "1.0.0",
        data: { duration: "1 second" },
      },
      {
        id: "c",
        type: "step",
        name: "C",
        position: { x: 480, y: 0 },
        version: "1.0.0",
        data: { code: "return {{a}};" },
      },
    ],
    edges: [
      { id: "e1", source: "a", target: "b" },
      { id: "e2", source: "b", target: "c" },
    ],
    entryNodeId: "a",
  } as WorkflowIR;
}

export function sel(nodes: string[] = [], edges: string[] = []): Selection {
  return { nodes: new Set(nodes), edges: new Set(edges) };
}

export function ctx(over: Partial<ActionContext> = {}, ir: WorkflowIR = sampleIR()): ActionContext {
  return {
    readOnly: false,
    clipboard: null,
    pasteCount: 0,
    history: emptyHistory(),
    running: new Set(),
    latest: () => ir,
    layout: () => Promise.resolve(new Map()),
    ...over,
  };
}

// now answers the result of an action that does not await.
export function now(r: ActionResult | Promise<ActionResult>): ActionResult {
  if (r instanceof Promise) throw new Error("the action awaits");
  return r;
}
