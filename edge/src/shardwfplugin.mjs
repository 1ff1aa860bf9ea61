// A miniflare plugin that gives a worker the Workflow binding of a Workflow that may run in shards (decision 776,
// shardwf.worker.js), loaded as an external plugin as goneplugin.mjs is. Each binding of type
// `unsafe:edgeflow-shardwf` becomes a workerd wrapped binding whose module is shardwf.worker.js, with inner bindings
// LOCAL (miniflare's binding service of the Workflow's engine in this workerd; the control worker's own binding of
// every Workflow of the group makes miniflare start it), EDGE (a service to the edge's binding proxy, d1host.mjs),
// PATH (the proxy's path, with its secret) and BINDING (the binding's name). plan.mjs describes such a binding
// (shardedWorkflows there).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = fs.readFileSync(path.join(here, "shardwf.worker.js"), "utf8");
// PLUGIN is the plugin's name (plan.mjs names it in each binding).
export const PLUGIN = "edgeflow-shardwf";
const TYPE = `unsafe:${PLUGIN}`;
const MODULE = `${PLUGIN}:binding`;

function entries(config) {
  return Object.entries(config.env ?? {}).filter(([, b]) => b?.type === TYPE);
}

// serviceName is the service that reaches the binding proxy at address (host:port).
function serviceName(address) {
  return `${PLUGIN}:edge:${address}`;
}

export const plugins = {
  [PLUGIN]: {
    getBindings(options) {
      return entries(options.config).map(([name, b]) => {
        const o = b.dev.options;
        return {
          name,
          wrapped: {
            moduleName: MODULE,
            entrypoint: "workflow",
            innerBindings: [
              { name: "LOCAL", service: { name: `workflows:${o.workflow}`, entrypoint: "WorkflowBinding" } },
              { name: "EDGE", service: { name: serviceName(o.address) } },
              { name: "PATH", text: o.path },
              { name: "BINDING", text: name },
            ],
          },
        };
      });
    },
    getNodeBindings() {
      return {};
    },
    getServices({ options }) {
      const addresses = new Set(entries(options.config).map(([, b]) => b.dev.options.address));
      return [...addresses].map((address) => ({ name: serviceName(address), external: { address, http: {} } }));
    },
    getExtensions() {
      return [{ modules: [{ name: MODULE, esModule: SOURCE, internal: true }] }];
    },
  },
};
