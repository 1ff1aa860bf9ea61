import { describe, expect, it } from "vitest";
import { paramsPreview, relativeTime } from "./details";

describe("relativeTime", () => {
  const now = Date.parse("2026-12-06T12:00:00Z");
  it("says how long ago, in the largest unit that fits", () => {
    expect(relativeTime("2026-12-06T11:59:58Z", now)).toBe("just now");
    expect(relativeTime("2026-12-06T11:59:30Z", now)).toBe("30 seconds ago");
    expect(relativeTime("2026-12-06T11:55:00Z", now)).toBe("5 minutes ago");
    expect(relativeTime("2026-12-06T09:00:00Z", now)).toBe("3 hours ago");
    expect(relativeTime("2026-12-05T11:00:00Z", now)).toBe("yesterday");
    expect(relativeTime("2026-11-20T12:00:00Z", now)).toBe("2 weeks ago");
    expect(relativeTime("2025-10-01T12:00:00Z", now)).toBe("last year");
  });
  it("reads a future instant as now, and nothing as a dash", () => {
    expect(relativeTime("2026-12-06T12:05:00Z", now)).toBe("just now");
    expect(relativeTime(null, now)).toBe("—");
    expect(relativeTime("not a time", now)).toBe("—");
  });
});

describe("paramsPreview", () => {
  it("is compact JSON, cut with an ellipsis", () => {
    expect(paramsPreview({ order: 7, by: "ann" })).toBe('{"order":7,"by":"ann"}');
    expect(paramsPreview({ note: "x".repeat(100) }, 20)).toBe('{"note":"xxxxxxxxxx…');
    expect(paramsPreview({ note: "x".repeat(100) }, 20)).toHaveLength(20);
  });
  it("is empty for no params", () => {
    expect(paramsPreview({})).toBe("");
    expect(paramsPreview(undefined)).toBe("");
    expect(paramsPreview(null)).toBe("");
  });
});
