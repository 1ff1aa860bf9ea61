import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCron } from "../src/cron.mjs";

test("cron expressions match the minutes they name (UTC)", () => {
  const cases = [
    ["* * * * *", "2026-03-04T05:06:00Z", true],
    ["*/15 * * * *", "2026-03-04T05:30:00Z", true],
    ["*/15 * * * *", "2026-03-04T05:31:00Z", false],
    ["0 9 * * MON-FRI", "2026-03-02T09:00:00Z", true], // a Monday
    ["0 9 * * MON-FRI", "2026-03-01T09:00:00Z", false], // a Sunday
    ["0 0 1 JAN *", "2026-01-01T00:00:00Z", true],
    ["30 2 * * 7", "2026-03-01T02:30:00Z", true], // 7 is Sunday too
    ["5,10-12 * * * *", "2026-03-01T02:11:00Z", true],
    ["0 12 15 * 1", "2026-03-16T12:00:00Z", true], // either day field
  ];
  for (const [expr, time, want] of cases)
    assert.equal(parseCron(expr).matches(new Date(time)), want, `${expr} at ${time}`);
});

test("bad cron expressions say what is wrong", () => {
  for (const [expr, msg] of [
    ["* * * *", /5 fields/],
    ["61 * * * *", /minute: 61/],
    ["*/0 * * * *", /bad step/],
    ["5-1 * * * *", /backwards/],
    ["* * * FOO *", /not a number/],
  ]) {
    assert.throws(() => parseCron(expr), msg);
  }
});
