import { cleanup, render } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Dialog } from "../app/ui";
import type { NodeDefinition } from "../ir/nodeDefs";
import type { WorkflowIR } from "../ir/types";
import { idProblem } from "./NodeLinks";
import { outletChoices, pickerMatches } from "./NodePicker";

afterEach(cleanup);

const def = (id: string, name: string, category: string, inFunctions = true): NodeDefinition => ({
  id,
  name,
  description: "",
  category,
  version: "1.0.0",
  configSchema: {},
  outputSchema: {},
  allowedInFunctions: inFunctions,
  builtin: true,
});

const ir: WorkflowIR = {
  metadata: { name: "x" },
  nodes: [
    { id: "a", type: "step", name: "A", data: {} },
    { id: "b", type: "branch", name: "B", data: { branches: [{ label: "big", condition: "1" }] } },
    { id: "p", type: "parallel", name: "P", data: {} },
    { id: "t", type: "try_catch", name: "T", data: {} },
  ],
  edges: [],
  entryNodeId: "a",
};

describe("the node picker", () => {
  it("finds node types by any word, names first, only those allowed in a function", () => {
    const defs = [
      def("http_request", "HTTP request", "HTTP"),
      def("step", "Step", "Code"),
      def("sleep", "Sleep", "Timing", false),
    ];
    expect(pickerMatches(defs, "workflow", "s").map((d) => d.id)).toEqual(["step", "sleep", "http_request"]);
    expect(pickerMatches(defs, "script", "s").map((d) => d.id)).toEqual(["step", "http_request"]);
    expect(pickerMatches(defs, "workflow", "timing").map((d) => d.id)).toEqual(["sleep"]);
    expect(pickerMatches(defs, "workflow", "nothing here")).toEqual([]);
  });

  it("names every outlet a node offers", () => {
    expect(outletChoices(ir, "a")).toEqual([{ value: "", label: "next" }]);
    expect(outletChoices(ir, "b").map((c) => c.value)).toEqual(["big", "then"]);
    expect(outletChoices(ir, "p")).toEqual([
      { value: "", label: "new lane" },
      { value: "then", label: "then" },
    ]);
    expect(outletChoices(ir, "t").map((c) => c.value)).toEqual(["try", "catch", "finally", "then"]);
    expect(outletChoices(ir, "missing")).toEqual([]);
  });

  it("says why an id cannot be used", () => {
    expect(idProblem(ir, "a", "a")).toBe("");
    expect(idProblem(ir, "a", "load_order")).toBe("");
    expect(idProblem(ir, "a", "b")).toBe("Another node has the id b.");
    expect(idProblem(ir, "a", "no spaces")).toMatch(/^An id has letters/);
  });
});

describe("a dialog", () => {
  beforeAll(() => {
    // jsdom has no modal dialogs: opening one marks it open, closing it closed
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.open = true;
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.open = false;
    };
  });

  it("opens with its first field focused, or the one marked data-autofocus", () => {
    const first = render(
      <Dialog title="One" onClose={() => {}}>
        <button type="button">Help</button>
        <label htmlFor="n">Name</label>
        <input id="n" />
        <label htmlFor="v">Value</label>
        <input id="v" />
      </Dialog>,
    );
    expect(document.activeElement).toBe(first.getByLabelText("Name"));
    cleanup();
    const second = render(
      <Dialog title="Two" onClose={() => {}}>
        <label htmlFor="n2">Name</label>
        <input id="n2" />
        <label htmlFor="v2">Value</label>
        <input id="v2" data-autofocus="" />
      </Dialog>,
    );
    expect(document.activeElement).toBe(second.getByLabelText("Value"));
  });
});
