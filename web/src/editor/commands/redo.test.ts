import { describe, expect, it } from "vitest";
import { emptyHistory } from "../history";
import { redoAction } from "./redo";
import { ctx, now, sampleIR, sel } from "./testing";

describe("redo", () => {
  const undone = sampleIR();
  const history = { ...emptyHistory(), future: [sampleIR(), undone] };

  it("goes forward to the IR undone last", () => {
    const r = now(redoAction.perform(sampleIR(), sel(), ctx({ history })));
    expect(r.history).toBe("redo");
    expect(r.ir).toBe(undone);
  });

  it("is enabled only with something undone, and never read-only", () => {
    expect(redoAction.enabled(sampleIR(), sel(), ctx({ history }))).toBe(true);
    expect(redoAction.enabled(sampleIR(), sel(), ctx())).toBe(false);
    expect(redoAction.enabled(sampleIR(), sel(), ctx({ history, readOnly: true }))).toBe(false);
  });

  it("is Ctrl+Shift+Z and Ctrl+Y", () => {
    expect(redoAction.keys).toEqual(["Mod+Shift+Z", "Mod+Y"]);
  });
});
