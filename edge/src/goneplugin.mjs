// A miniflare plugin that gives a worker the bindings of deleted resources (gone.worker.js). miniflare 4 had
// `wrappedBindings` for this; miniflare 5 dropped the option, and a service binding to an entrypoint would not do:
// a service binding is a Fetcher, whose own get/put/delete methods hide the KV and R2 methods of the same names. So
// the edge loads this module as an external plugin (miniflare's unsafe bindings name a plugin package; an absolute
// path is one): each binding of type `unsafe:edgeflow-gone` becomes a workerd wrapped binding whose module is
// gone.worker.js and whose entrypoint (kv, r2, d1) builds the failing binding object from the deleted resource's id.
// plan.mjs describes such a binding (goneBinding there).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = fs.readFileSync(path.join(here, "gone.worker.js"), "utf8");
// PLUGIN is the plugin's name (plan.mjs names it in each binding).
export const PLUGIN = "edgeflow-gone";
const TYPE = `unsafe:${PLUGIN}`;
const MODULE = `${PLUGIN}:bindings`;

function goneEntries(config) {
  return Object.entries(config.env ?? {}).filter(([, b]) => b?.type === TYPE);
}

export const plugins = {
  [PLUGIN]: {
    getBindings(options) {
      return goneEntries(options.config).map(([name, b]) => ({
        name,
        wrapped: {
          moduleName: MODULE,
          entrypoint: b.dev.options.kind,
          innerBindings: [{ name: "ID", text: b.dev.options.id }],
        },
      }));
    },
    getNodeBindings() {
      return {};
    },
    getServices() {
      return [];
    },
    getExtensions() {
      return [{ modules: [{ name: MODULE, esModule: SOURCE, internal: true }] }];
    },
  },
};
