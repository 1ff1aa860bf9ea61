// Browser tests wait on facts, not clocks (docs/decisions.md 374): no waitForTimeout in web/browser unless this
// allow-list says why it remains.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// allowed: file name → why its waitForTimeout stays. Empty: none does.
const allowed: Record<string, string> = {};

describe("browser tests", () => {
  it("use no waitForTimeout outside the allow-list", () => {
    const dir = path.resolve(__dirname, "../browser");
    const found = readdirSync(dir)
      .filter((f) => f.endsWith(".mjs") && !(f in allowed))
      .filter((f) => /\bwaitForTimeout\s*\(/.test(readFileSync(path.join(dir, f), "utf8")));
    expect(found).toEqual([]);
  });
});
