// `npm run test:browser`: builds Studio (when its sources are newer than the build) and the edgeflow binary
// embedding it once, then runs every browser/*.test.mjs file with node --test, one file at a time (each starts a
// server and a browser of its own; the machine's cores are better spent on one at a time).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { missingTools, prepare, webDir } from "./harness.mjs";

const dir = path.join(webDir, "browser");
const files = readdirSync(dir).filter((f) => f.endsWith(".test.mjs")).sort().map((f) => path.join(dir, f));
const extra = process.argv.slice(2); // e.g. --test-name-pattern=smoke

let skip;
try {
  skip = missingTools();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
const env = { ...process.env };
if (!skip) {
  const started = Date.now();
  // A binary it builds goes to a temporary directory removed when this process exits.
  env.EDGEFLOW_BROWSER_BIN = prepare();
  console.log(`# built Studio and ${env.EDGEFLOW_BROWSER_BIN} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
const r = spawnSync(process.execPath, ["--test", "--test-concurrency=1", ...extra, ...files], { cwd: webDir, env, stdio: "inherit" });
process.exit(r.status ?? 1);
