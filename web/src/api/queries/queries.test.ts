// The query key factories: every key an invalidation names is a prefix of the keys of the queries it must refresh,
// and no module outside api/queries writes a query key of its own.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { QueryKey } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { apiKeyKeys, apiKeyQueries } from "./apiKeys";
import { connectionKeys, connectionQueries } from "./connections";
import { deploymentKeys, deploymentQueries } from "./deployments";
import { envVarKeys, envVarQueries } from "./envVars";
import { marketplaceKeys, marketplaceQueries } from "./marketplace";
import { nodeKeys, nodeQueries } from "./nodes";
import { organizationKeys, organizationQueries } from "./organizations";
import { projectKeys, projectQueries } from "./projects";
import { resourceKeys, resourceQueries } from "./resources";
import { runKeys, runQueries } from "./runs";
import { sessionKeys, sessionQueries } from "./session";
import { webhookKeys, webhookQueries } from "./webhooks";
import { workflowKeys, workflowQueries } from "./workflows";

function startsWith(key: QueryKey, prefix: QueryKey): boolean {
  return prefix.every((part, i) => key[i] === part);
}

describe("query keys", () => {
  const cases: [string, QueryKey, QueryKey[]][] = [
    [
      "a workflow",
      workflowKeys.one("wf_1"),
      [
        workflowQueries.record("wf_1").queryKey,
        workflowQueries.full("wf_1").queryKey,
        workflowQueries.versions("wf_1").queryKey,
        workflowQueries.newestVersion("wf_1", "ver_2").queryKey,
        workflowQueries.version("wf_1", "ver_2").queryKey,
        workflowQueries.estimate("wf_1", "ver_2", "con_1", 100).queryKey,
        workflowQueries.deployPlan("wf_1", "ver_2", { environment: "staging" }).queryKey,
        runQueries.ofWorkflow("wf_1").queryKey,
      ],
    ],
    ["the workflow lists", workflowKeys.lists, [workflowQueries.list().queryKey]],
    [
      "the run lists",
      runKeys.lists,
      [runQueries.recent().queryKey, runQueries.search("status=errored", "", "").queryKey],
    ],
    ["a run", runKeys.one("run_1"), [runQueries.one("run_1").queryKey, runQueries.logs("wf_1", "run_1").queryKey]],
    ["every run", runKeys.everyRun, [runQueries.one("run_1").queryKey, runQueries.logs("wf_1", "run_1").queryKey]],
    ["the deployments", deploymentKeys.all, [deploymentQueries.list().queryKey]],
    [
      "the connections",
      connectionKeys.all,
      [connectionQueries.list().queryKey, connectionQueries.firstPage().queryKey],
    ],
    ["the webhooks", webhookKeys.all, [webhookQueries.list().queryKey, webhookQueries.deliveries("wh_1").queryKey]],
    ["a webhook", webhookKeys.one("wh_1"), [webhookQueries.deliveries("wh_1").queryKey]],
    [
      "a team",
      organizationKeys.team("org_1"),
      [
        organizationQueries.members("org_1").queryKey,
        organizationQueries.firstMembers("org_1").queryKey,
        organizationQueries.invitations("org_1").queryKey,
      ],
    ],
    ["a team's members", organizationKeys.members("org_1"), [organizationQueries.firstMembers("org_1").queryKey]],
    ["the API keys", apiKeyKeys.all, [apiKeyQueries.list().queryKey, apiKeyQueries.firstPage().queryKey]],
    ["the variables", envVarKeys.all, [envVarQueries.list().queryKey, envVarQueries.usage().queryKey]],
    [
      "the marketplace",
      marketplaceKeys.all,
      [
        marketplaceQueries.categories().queryKey,
        marketplaceQueries.catalog("q=x").queryKey,
        marketplaceQueries.node("n").queryKey,
      ],
    ],
    ["the node types", nodeKeys.all, [nodeQueries.definitions().queryKey]],
    ["the projects", projectKeys.all, [projectQueries.list("org_1").queryKey]],
    ["the session", sessionKeys.all, [sessionQueries.current().queryKey]],
    [
      "a connection's resources",
      resourceKeys.connection("con_1"),
      [
        resourceQueries.kvNamespaces("con_1", "").queryKey,
        resourceQueries.kvKeys("con_1", "ns", "").queryKey,
        resourceQueries.kvValue("con_1", "ns", "k").queryKey,
        resourceQueries.d1Tables("con_1", "db").queryKey,
        resourceQueries.r2Objects("con_1", "b", "").queryKey,
      ],
    ],
  ];
  it.each(cases)("%s: the invalidated key is a prefix of each query's key", (_name, prefix, keys) => {
    for (const key of keys)
      expect(startsWith(key, prefix), `${JSON.stringify(key)} starts with ${JSON.stringify(prefix)}`).toBe(true);
  });

  it("keeps the lists apart from what they do not hold", () => {
    // a workflow's record is not among the workflow lists; a webhook's deliveries are not the webhook list
    expect(startsWith(workflowQueries.record("wf_1").queryKey, workflowKeys.lists)).toBe(false);
    expect(startsWith(webhookQueries.deliveries("wh_1").queryKey, webhookQueries.list().queryKey)).toBe(false);
    expect(startsWith(runQueries.one("run_1").queryKey, runKeys.lists)).toBe(false);
  });
});

describe("query keys live in api/queries", () => {
  const src = path.resolve(__dirname, "../..");
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e) && !/\.test\.tsx?$/.test(e)) files.push(p);
    }
  };
  walk(src);

  it("no page or component writes a query key", () => {
    const inline = files
      .filter((f) => !f.startsWith(path.join(src, "api", "queries") + path.sep))
      .filter((f) => /queryKey\s*:\s*\[/.test(readFileSync(f, "utf8")))
      .map((f) => path.relative(src, f));
    expect(inline).toEqual([]);
  });
});
