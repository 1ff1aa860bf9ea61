// The control worker's code as miniflare modules: control.worker.js and the modules it imports, read once. The
// groups' control worker (groups.mjs) and each D1 database's host worker (d1host.mjs) run it.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

// CONTROL_MODULES are the modules, the main one first.
export const CONTROL_MODULES = Object.freeze(
  ["control.worker.js", "control.common.js", "control.workflows.js", "control.stores.js"].map((name) =>
    Object.freeze({ type: "ESModule", path: name, contents: fs.readFileSync(path.join(here, name), "utf8") }),
  ),
);
