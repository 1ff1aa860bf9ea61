import { describe, expect, it } from "vitest";
import { selectAllAction } from "./selectAll";
import { ctx, now, sampleIR, sel } from "./testing";

describe("select all", () => {
  it("selects every node and keeps the selected edges, changing no IR", () => {
    const r = now(selectAllAction.perform(sampleIR(), sel(["a"], ["e2"]), ctx()));
    expect(r.ir).toBeUndefined();
    expect([...r.selection!.nodes]).toEqual(["a", "b", "c"]);
    expect([...r.selection!.edges]).toEqual(["e2"]);
  });

  it("is always enabled, read-only too (an empty canvas keeps Ctrl+A from selecting the page)", () => {
    expect(selectAllAction.enabled({ ...sampleIR(), nodes: [], edges: [] }, sel(), ctx({ readOnly: true }))).toBe(true);
  });
});
