import { describe, expect, it } from "vitest";
import { copyAction } from "./copy";
import { ctx, now, sampleIR, sel } from "./testing";

describe("copy", () => {
  it("puts the selected nodes and the edges among them on the clipboard, and starts pasting afresh", () => {
    const ir = sampleIR();
    const r = now(copyAction.perform(ir, sel(["a", "b"]), ctx({ pasteCount: 3 })));
    expect(r).toEqual({
      clipboard: { nodes: [ir.nodes[0], ir.nodes[1]], edges: [ir.edges[0]] },
      pasteCount: 0,
      notice: "Copied 2 nodes.",
    });
    expect("ir" in r).toBe(false);
  });

  it("says one node in the singular", () => {
    expect(now(copyAction.perform(sampleIR(), sel(["c"]), ctx())).notice).toBe("Copied 1 node.");
  });

  it("needs a selected node, and works read-only", () => {
    expect(copyAction.enabled(sampleIR(), sel(), ctx())).toBe(false);
    expect(copyAction.enabled(sampleIR(), sel([], ["e1"]), ctx())).toBe(false);
    expect(copyAction.enabled(sampleIR(), sel(["a"]), ctx({ readOnly: true }))).toBe(true);
  });
});
