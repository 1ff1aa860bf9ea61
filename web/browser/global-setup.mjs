// The browser tests' global setup: once per run, before any test file, build Studio (when stale) and the edgeflow
// binary embedding it. The workers find the binary in $EDGEFLOW_BROWSER_BIN. A machine without the tools builds
// nothing: each file's tests then skip with the reason (or fail under CI=1).
import { missingTools, prepare } from "./tools.mjs";

export default function globalSetup() {
  const skip = missingTools();
  if (skip) {
    console.log(`# skipping: ${skip}`);
    return;
  }
  const started = Date.now();
  const bin = prepare();
  console.log(`# built Studio and ${bin} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
