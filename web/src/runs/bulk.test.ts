import { describe, expect, it } from "vitest";
import { bulkFilter, progressText, toggle } from "./bulk";
import { NO_FILTERS } from "./filters";

const page = ["r1", "r2", "r3", "r4", "r5"];

describe("toggle", () => {
  it("ticks and unticks one run", () => {
    const a = toggle([], page, "r2", false, "");
    expect(a).toEqual({ ticked: ["r2"], anchor: "r2" });
    expect(toggle(a.ticked, page, "r2", false, a.anchor).ticked).toEqual([]);
  });

  it("ticks the range from the anchor with shift, in the page's order", () => {
    const a = toggle([], page, "r4", false, "");
    expect(toggle(a.ticked, page, "r2", true, a.anchor).ticked).toEqual(["r2", "r3", "r4"]);
  });

  it("unticks a range when the clicked run was ticked", () => {
    expect(toggle(page, page, "r4", true, "r2").ticked).toEqual(["r1", "r5"]);
  });

  it("keeps runs ticked on other pages; an anchor not on the page ticks one run", () => {
    expect(toggle(["x9"], page, "r3", true, "x9").ticked).toEqual(["x9", "r3"]);
  });
});

describe("bulkFilter", () => {
  it("names ticked runs by id alone", () => {
    expect(bulkFilter({ kind: "ticked", ids: ["r1", "r2"] }, { ...NO_FILTERS, status: "errored" })).toEqual({
      runIds: ["r1", "r2"],
    });
  });

  it("takes the applied filters for all matching runs", () => {
    const f = { ...NO_FILTERS, workflowId: "wf_1", status: "errored", q: "  A-1 ", from: "2026-12-05T00:00" };
    const got = bulkFilter({ kind: "matching" }, f);
    expect(got).toEqual({ workflowId: "wf_1", status: "errored", q: "A-1", from: new Date(f.from).toISOString() });
  });
});

describe("progressText", () => {
  it("reads a running, a finished and a cancelled job", () => {
    expect(progressText({ state: "running", done: 12, matched: 50, failedCount: 0 })).toBe("12 of 50 runs done…");
    expect(progressText({ state: "complete", done: 50, matched: 50, failedCount: 2 })).toBe(
      "Done: 50 of 50 runs done, 2 failed.",
    );
    expect(progressText({ state: "cancelled", done: 25, matched: 1, failedCount: 0 })).toBe(
      "Cancelled: 25 of 1 run done; the others were left alone.",
    );
  });
});
