import { describe, expect, it } from "vitest";
import { copyNodes } from "../../ir/edit";
import { pasteAction } from "./paste";
import { ctx, now, sampleIR, sel } from "./testing";

describe("paste", () => {
  const clip = copyNodes(sampleIR(), new Set(["a", "b"]));

  it("adds copies with fresh ids and (copy) names, moved a step further each time, and selects them", () => {
    const ir = sampleIR();
    const r = now(pasteAction.perform(ir, sel(["c"], ["e2"]), ctx({ clipboard: clip, pasteCount: 1 })));
    const added = r.ir!.nodes.slice(ir.nodes.length);
    expect(added.map((n) => n.name)).toEqual(["A (copy)", "B (copy)"]);
    expect(added.map((n) => n.position)).toEqual([
      { x: 80, y: 80 },
      { x: 320, y: 80 },
    ]);
    expect([...r.selection!.nodes]).toEqual(added.map((n) => n.id));
    expect(r.selection!.edges.size).toBe(0);
    expect(r.pasteCount).toBe(2);
    expect(r.notice).toBe("Pasted 2 nodes.");
    // the edge among the copies follows them
    expect(r.ir!.edges.at(-1)).toMatchObject({ source: added[0]!.id, target: added[1]!.id });
  });

  it("needs a clipboard with nodes and an editable IR", () => {
    expect(pasteAction.enabled(sampleIR(), sel(), ctx({ clipboard: clip }))).toBe(true);
    expect(pasteAction.enabled(sampleIR(), sel(), ctx())).toBe(false);
    expect(pasteAction.enabled(sampleIR(), sel(), ctx({ clipboard: { nodes: [], edges: [] } }))).toBe(false);
    expect(pasteAction.enabled(sampleIR(), sel(), ctx({ clipboard: clip, readOnly: true }))).toBe(false);
  });
});
