// `npm run test:browser`: runs every browser/*.test.mjs file with @playwright/test (playwright.config.mjs), whose
// global setup builds Studio (when its sources are newer than the build) and the edgeflow binary embedding it once.
// Arguments go to `playwright test`, e.g. `npm run test:browser -- smoke` or `-- -g "Deploy"`. A machine without the
// tools skips with the reason (under CI=1 it fails instead).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { missingTools, webDir } from "./tools.mjs";

let skip;
try {
  skip = missingTools();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
if (skip) {
  console.log(`# skipping: ${skip}`);
  process.exit(0);
}
const require = createRequire(path.join(webDir, "package.json"));
const cli = path.join(path.dirname(require.resolve("@playwright/test/package.json")), "cli.js");
const r = spawnSync(
  process.execPath,
  [cli, "test", "--config", path.join(webDir, "playwright.config.mjs"), ...process.argv.slice(2)],
  {
    cwd: webDir,
    stdio: "inherit",
  },
);
process.exit(r.status ?? 1);
