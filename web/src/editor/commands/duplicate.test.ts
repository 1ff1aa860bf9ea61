import { describe, expect, it } from "vitest";
import { duplicateAction } from "./duplicate";
import { ctx, now, sampleIR, sel } from "./testing";

describe("duplicate", () => {
  it("copies the selected nodes next to them, selects the copies and leaves the clipboard alone", () => {
    const ir = sampleIR();
    const r = now(duplicateAction.perform(ir, sel(["c"]), ctx()));
    const added = r.ir!.nodes.slice(ir.nodes.length);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ name: "C (copy)", position: { x: 520, y: 40 }, data: { code: "return {{a}};" } });
    expect(added[0]!.id).not.toBe("c");
    expect([...r.selection!.nodes]).toEqual([added[0]!.id]);
    expect(r.clipboard).toBeUndefined();
    expect(r.notice).toBe("Duplicated 1 node.");
  });

  it("renames expressions among the copies", () => {
    const ir = sampleIR();
    const r = now(duplicateAction.perform(ir, sel(["a", "c"]), ctx()));
    const [a, c] = r.ir!.nodes.slice(ir.nodes.length);
    expect(c!.data.code).toBe(`return {{${a!.id}}};`);
  });

  it("needs a selected node and an editable IR", () => {
    expect(duplicateAction.enabled(sampleIR(), sel(["a"]), ctx())).toBe(true);
    expect(duplicateAction.enabled(sampleIR(), sel(), ctx())).toBe(false);
    expect(duplicateAction.enabled(sampleIR(), sel(["a"]), ctx({ readOnly: true }))).toBe(false);
  });
});
