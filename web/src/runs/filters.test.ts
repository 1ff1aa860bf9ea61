import { describe, expect, it } from "vitest";
import { filterProblem, filtersFromSearch, localToRfc3339, NO_FILTERS, runsQuery, searchFromFilters } from "./filters";

describe("run filters", () => {
  it("go to the URL and back", () => {
    const f = { ...NO_FILTERS, workflowId: "wf_1", status: "errored", q: "card declined" };
    const s = searchFromFilters(f);
    expect(s).toBe("workflowId=wf_1&status=errored&q=card+declined");
    expect(filtersFromSearch(s)).toEqual(f);
    expect(searchFromFilters(NO_FILTERS)).toBe("");
  });
  it("send times as RFC 3339 and the cursor", () => {
    const from = "2026-11-27T06:40";
    const q = new URLSearchParams(runsQuery({ ...NO_FILTERS, from, versionId: "ver_1" }, "c1", 10));
    expect(q.get("from")).toBe(new Date(from).toISOString());
    expect(q.get("versionId")).toBe("ver_1");
    expect(q.get("cursor")).toBe("c1");
    expect(q.get("limit")).toBe("10");
    expect(q.has("to")).toBe(false);
    expect(localToRfc3339("")).toBe("");
  });
  it("name a bad range before it is sent", () => {
    expect(filterProblem({ ...NO_FILTERS, from: "2026-11-27T06:40", to: "2026-11-27T06:00" })).toBe(
      "To must be after From.",
    );
    expect(filterProblem({ ...NO_FILTERS, from: "2026-11-27T06:00", to: "2026-11-27T06:40" })).toBe("");
    expect(filterProblem({ ...NO_FILTERS, q: "x".repeat(201) })).toMatch(/200/);
  });
});
