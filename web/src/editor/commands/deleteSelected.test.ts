import { describe, expect, it } from "vitest";
import { deleteSelectedAction } from "./deleteSelected";
import { ctx, now, sampleIR, sel } from "./testing";

describe("delete selected", () => {
  it("removes the selected nodes with their edges, and the selected edges", () => {
    const r = now(deleteSelectedAction.perform(sampleIR(), sel(["b"]), ctx()));
    expect(r.ir!.nodes.map((n) => n.id)).toEqual(["a", "c"]);
    expect(r.ir!.edges).toEqual([]);
    const e = now(deleteSelectedAction.perform(sampleIR(), sel([], ["e1"]), ctx()));
    expect(e.ir!.edges.map((x) => x.id)).toEqual(["e2"]);
    expect(e.ir!.nodes).toHaveLength(3);
  });

  it("passes the entry on when the entry node goes", () => {
    const r = now(deleteSelectedAction.perform(sampleIR(), sel(["a"]), ctx()));
    expect(r.ir!.entryNodeId).toBe("b");
  });

  it("needs a selected node or edge and an editable IR; it is Delete and Backspace", () => {
    expect(deleteSelectedAction.enabled(sampleIR(), sel(), ctx())).toBe(false);
    expect(deleteSelectedAction.enabled(sampleIR(), sel([], ["e1"]), ctx())).toBe(true);
    expect(deleteSelectedAction.enabled(sampleIR(), sel(["a"]), ctx({ readOnly: true }))).toBe(false);
    expect(deleteSelectedAction.keys).toEqual(["Delete", "Backspace"]);
  });
});
