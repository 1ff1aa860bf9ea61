import { describe, expect, it } from "vitest";
import { record } from "../history";
import { ctx, now, sampleIR, sel } from "./testing";
import { undoAction } from "./undo";

describe("undo", () => {
  const before = sampleIR();
  const history = record(
    record({ past: [], future: [], key: "", at: 0 }, sampleIR(), undefined, 1),
    before,
    undefined,
    2,
  );

  it("goes back to the IR before the last edit, through the history", () => {
    const r = now(undoAction.perform(sampleIR(), sel(), ctx({ history })));
    expect(r).toEqual({ ir: before, history: "undo" });
    expect(r.ir).toBe(before);
  });

  it("is enabled only with something to undo, and never read-only", () => {
    expect(undoAction.enabled(sampleIR(), sel(), ctx({ history }))).toBe(true);
    expect(undoAction.enabled(sampleIR(), sel(), ctx())).toBe(false);
    expect(undoAction.enabled(sampleIR(), sel(), ctx({ history, readOnly: true }))).toBe(false);
  });

  it("is Ctrl+Z", () => {
    expect(undoAction.keys).toEqual(["Mod+Z"]);
  });
});
