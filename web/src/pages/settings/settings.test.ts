import { describe, expect, it } from "vitest";
import { auditPath, noFilters } from "./Audit";
import { byName } from "./list";

describe("byName", () => {
  it("sorts as people read names: case-insensitive, numbers in order", () => {
    const sorted = byName([{ name: "beta" }, { name: "Alpha 10" }, { name: "alpha 9" }, { name: "Gamma" }]);
    expect(sorted.map((x) => x.name)).toEqual(["alpha 9", "Alpha 10", "beta", "Gamma"]);
  });
});

describe("auditPath", () => {
  it("is the plain list without filters", () => {
    expect(auditPath(noFilters)).toBe("/api/audit");
  });
  it("sends the filters given, trimmed, and local times as RFC 3339", () => {
    const p = new URL(
      auditPath({ actor: "usr_1", action: " workflow.deploy ", target: "", since: "2026-01-02T03:04", until: "" }),
      "http://x",
    );
    expect(p.searchParams.get("actor")).toBe("usr_1");
    expect(p.searchParams.get("action")).toBe("workflow.deploy");
    expect(p.searchParams.has("target")).toBe(false);
    expect(p.searchParams.get("since")).toBe(new Date("2026-01-02T03:04").toISOString());
    expect(p.searchParams.has("until")).toBe(false);
  });
});
