import { describe, expect, it } from "vitest";
import { autoLayoutAction } from "./autoLayout";
import { ctx, sampleIR, sel } from "./testing";

describe("auto-layout", () => {
  it("moves the nodes to the positions the layout answers, on the IR as it is when they arrive, and fits the view", async () => {
    const start = sampleIR();
    const later = {
      ...sampleIR(),
      nodes: sampleIR().nodes.map((n) => (n.id === "c" ? { ...n, name: "renamed meanwhile" } : n)),
    };
    const layout = () =>
      Promise.resolve(
        new Map([
          ["a", { x: 10.4, y: 20 }],
          ["c", { x: 300, y: 7 }],
        ]),
      );
    const r = await autoLayoutAction.perform(start, sel(), ctx({ layout, latest: () => later }));
    expect(r.ir!.nodes.map((n) => [n.id, n.name, n.position])).toEqual([
      ["a", "A", { x: 10, y: 20 }],
      ["b", "B", { x: 240, y: 0 }],
      ["c", "renamed meanwhile", { x: 300, y: 7 }],
    ]);
    expect(r.fitView).toBe(true);
    expect(r.notice).toBe("Laid out the workflow.");
  });

  it("says why a layout failed and changes nothing", async () => {
    const r = await autoLayoutAction.perform(
      sampleIR(),
      sel(),
      ctx({ layout: () => Promise.reject(new Error("no worker")) }),
    );
    expect(r).toEqual({ notice: "Auto-layout failed: no worker" });
  });

  it("needs nodes, an editable IR and no layout running already", () => {
    expect(autoLayoutAction.enabled(sampleIR(), sel(), ctx())).toBe(true);
    expect(autoLayoutAction.enabled({ ...sampleIR(), nodes: [] }, sel(), ctx())).toBe(false);
    expect(autoLayoutAction.enabled(sampleIR(), sel(), ctx({ readOnly: true }))).toBe(false);
    expect(autoLayoutAction.enabled(sampleIR(), sel(), ctx({ running: new Set(["auto-layout"]) }))).toBe(false);
  });
});
