// The browser tests (browser/*.test.mjs) under @playwright/test: one file at a time (each starts a server and a
// browser of its own, and the machine's cores are better spent on one at a time), Debian's chromium, web-first
// assertions that wait up to 30 s, and a trace and a screenshot of every page kept for a failed test in
// test-results/ (open a trace with `npx playwright show-trace test-results/…/trace.zip`).
import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath, ci } from "./browser/tools.mjs";

export default defineConfig({
  testDir: "browser",
  testMatch: "*.test.mjs",
  globalSetup: "./browser/global-setup.mjs",
  outputDir: "test-results",
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: ci,
  // A scenario step deploys to the local edge and runs workflows on it: minutes on a loaded machine.
  timeout: 15 * 60_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  use: {
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    // Screenshots in the trace would record the screen all the time; the snapshots around each action and the
    // failure screenshots below are enough to see what went wrong.
    trace: { mode: "retain-on-failure", snapshots: true, screenshots: false, sources: true },
    screenshot: "only-on-failure",
    headless: true,
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
});
