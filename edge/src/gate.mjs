// The gate in front of workerd's entry socket. The entry socket (miniflare's router) listens on loopback and
// routes by the MF-Route-Override header to any worker by name, or to the first worker of the list when there is
// none; any process on the machine can connect to it. So:
//
//   - the first worker (the default route) is REFUSER_WORKER, which answers 404 to everything;
//   - the control worker, bound to every KV namespace, D1 database, R2 bucket and Workflow, answers only requests
//     carrying GATE_HEADER with this boot's secret, which only the edge's Node process knows (it is a binding of
//     the control worker alone; user workers never see it);
//   - worker code cannot reach the entry socket at all: its outbound requests go through the outbound guard
//     (outbound.mjs), which refuses loopback addresses.

import { randomBytes } from "node:crypto";

export const REFUSER_WORKER = "__edgeflow_refuser";
export const GATE_HEADER = "x-edgeflow-gate";

export const REFUSER_SOURCE = `
export default {
  fetch() {
    return new Response("Not found\\n", { status: 404, headers: { "content-type": "text/plain" } });
  },
};
`;

// newGateSecret returns a fresh secret for one run of the edge.
export function newGateSecret() {
  return randomBytes(32).toString("base64url");
}
