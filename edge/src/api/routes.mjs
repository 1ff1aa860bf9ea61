// The route table of the edge's Cloudflare API (/client/v4): one line per route, with its method, path pattern,
// handler and who may call it (auth). api.mjs builds its router from this list, in this order (the first route
// whose pattern and method match a request serves it); gateway.mjs checks a route's auth before its handler runs.
//
// To add a route: write its handler in the resource's module under api/, a function (ctx, c) of the account's
// context (AccountContext, ../api.mjs) and the call ({req, res, params, query, body(limit), json(opts)}) that
// answers {result, info?, status?} (sent in Cloudflare's envelope) or answers the response itself and returns
// nothing; then add its line here. edge/test/routes.test.mjs checks the table (auth against pattern, duplicates).

import * as d1 from "./d1.mjs";
import * as history from "./history.mjs";
import * as identity from "./identity.mjs";
import * as instances from "./instances.mjs";
import * as kv from "./kv.mjs";
import * as logs from "./logs.mjs";
import * as r2 from "./r2.mjs";
import * as schedules from "./schedules.mjs";
import * as secrets from "./secrets.mjs";
import * as workers from "./workers.mjs";
import * as workflows from "./workflows.mjs";
import * as zones from "./zones.mjs";

// Who may call a route:
// - ACCOUNT: the path names the account (:account): that account's token, or the root token for any account
//   that exists; another account's token is 403 9109.
// - TOKEN: any account's token, or the root token; the route answers for the token's own account.
// - ACCOUNT_VERIFY, TOKEN_VERIFY: a token check, as ACCOUNT and TOKEN, except that a token no account has is 401
//   1000 (Invalid API Token, which wrangler reads) rather than 10000.
export const ACCOUNT = Object.freeze({ account: true, verify: false });
export const TOKEN = Object.freeze({ account: false, verify: false });
export const ACCOUNT_VERIFY = Object.freeze({ account: true, verify: true });
export const TOKEN_VERIFY = Object.freeze({ account: false, verify: true });

const A = "/accounts/:account";
const S = `${A}/workers/scripts/:script`;
const W = `${A}/workflows/:workflow`;
const K = `${A}/storage/kv/namespaces`;
const D = `${A}/d1/database`;
const R = `${A}/r2/buckets`;

const TABLE = [
  // identity
  ["GET", "/user/tokens/verify", identity.verifyToken, TOKEN_VERIFY],
  ["GET", `${A}/tokens/verify`, identity.verifyToken, ACCOUNT_VERIFY],
  ["GET", "/user", identity.getUser, TOKEN],
  ["GET", "/accounts", identity.listAccounts, TOKEN],
  ["GET", A, identity.getAccount, ACCOUNT],
  ["GET", "/memberships", identity.listMemberships, TOKEN],

  // zones and their worker routes
  ["GET", "/zones", zones.listZones, TOKEN],
  ["GET", "/zones/:zone", zones.getZone, TOKEN],
  ["GET", "/zones/:zone/workers/routes", zones.listZoneRoutes, TOKEN],
  ["POST", "/zones/:zone/workers/routes", zones.createZoneRoute, TOKEN],
  ["GET", "/zones/:zone/workers/routes/:route", zones.getZoneRoute, TOKEN],
  ["PUT", "/zones/:zone/workers/routes/:route", zones.updateZoneRoute, TOKEN],
  ["DELETE", "/zones/:zone/workers/routes/:route", zones.deleteZoneRoute, TOKEN],

  // Workers scripts
  ["GET", `${A}/workers/scripts`, workers.listScripts, ACCOUNT],
  ["GET", `${A}/workers/scripts-search`, workers.searchScripts, ACCOUNT],
  ["PUT", S, workers.uploadScript, ACCOUNT],
  ["GET", S, workers.scriptContent, ACCOUNT],
  ["DELETE", S, workers.deleteScript, ACCOUNT],
  ["GET", `${S}/content/v2`, workers.scriptContent, ACCOUNT],
  ["GET", `${S}/settings`, workers.getSettings, ACCOUNT],
  ["PATCH", `${S}/settings`, workers.patchSettings, ACCOUNT],
  ["GET", `${S}/script-settings`, workers.getScriptSettings, ACCOUNT],
  ["PATCH", `${S}/script-settings`, workers.patchScriptSettings, ACCOUNT],
  ["GET", `${S}/versions`, workers.listVersions, ACCOUNT],
  ["POST", `${S}/versions`, workers.uploadVersion, ACCOUNT],
  ["GET", `${S}/versions/:version`, workers.getVersion, ACCOUNT],
  ["GET", `${S}/deployments`, workers.listDeployments, ACCOUNT],
  ["POST", `${S}/deployments`, workers.deployScript, ACCOUNT],
  ["GET", `${S}/deployments/:deployment`, workers.getDeployment, ACCOUNT],
  ["DELETE", `${S}/deployments/:deployment`, workers.deleteDeployment, ACCOUNT],
  ["GET", `${S}/secrets`, secrets.listSecrets, ACCOUNT],
  ["PUT", `${S}/secrets`, secrets.putSecret, ACCOUNT],
  ["GET", `${S}/secrets/:secret`, secrets.getSecret, ACCOUNT],
  ["DELETE", `${S}/secrets/:secret`, secrets.deleteSecret, ACCOUNT],
  ["PATCH", `${S}/secrets-bulk`, secrets.putSecretsBulk, ACCOUNT],
  ["GET", `${S}/subdomain`, workers.getSubdomain, ACCOUNT],
  ["POST", `${S}/subdomain`, workers.setSubdomain, ACCOUNT],
  ["DELETE", `${S}/subdomain`, workers.disableSubdomain, ACCOUNT],
  ["GET", `${S}/routes`, workers.getRoutes, ACCOUNT],
  ["PUT", `${S}/routes`, workers.putRoutes, ACCOUNT],
  ["GET", `${S}/schedules`, schedules.getSchedules, ACCOUNT],
  ["PUT", `${S}/schedules`, schedules.putSchedules, ACCOUNT],
  ["GET", `${A}/workers/services/:script`, workers.getService, ACCOUNT],
  ["DELETE", `${A}/workers/services/:script`, workers.deleteService, ACCOUNT],
  ["GET", `${A}/workers/workers/:script`, workers.getWorker, ACCOUNT],
  ["GET", `${A}/workers/subdomain`, workers.getAccountSubdomain, ACCOUNT],
  ["PUT", `${A}/workers/subdomain`, workers.putAccountSubdomain, ACCOUNT],
  ["GET", `${A}/workers/account-settings`, workers.accountSettings, ACCOUNT],

  // Workflows and their instances
  ["GET", `${A}/workflows`, workflows.listWorkflows, ACCOUNT],
  ["PUT", W, workflows.putWorkflow, ACCOUNT],
  ["GET", W, workflows.getWorkflow, ACCOUNT],
  ["DELETE", W, workflows.deleteWorkflow, ACCOUNT],
  ["GET", `${W}/versions`, workflows.workflowVersions, ACCOUNT],
  ["GET", `${W}/versions/:version`, workflows.workflowVersion, ACCOUNT],
  ["GET", `${W}/instances`, instances.listInstances, ACCOUNT],
  ["POST", `${W}/instances`, instances.createInstance, ACCOUNT],
  ["POST", `${W}/instances/batch`, instances.createBatch, ACCOUNT],
  ["POST", `${W}/instances/batch/delete`, instances.deleteBatch, ACCOUNT],
  ["PUT", `${W}/instances/terminate`, instances.terminateAll, ACCOUNT],
  ["GET", `${W}/instances/:instance`, instances.getInstance, ACCOUNT],
  ["DELETE", `${W}/instances/:instance`, instances.deleteInstance, ACCOUNT],
  ["POST", `${W}/instances/read`, instances.readInstances, ACCOUNT],
  ["PATCH", `${W}/instances/:instance/status`, instances.changeStatus, ACCOUNT],
  ["POST", `${W}/instances/:instance/events/:type`, instances.sendEvent, ACCOUNT],
  ["GET", `${W}/instances/:instance/step`, history.stepOutput, ACCOUNT],
  ["GET", `${W}/instances/:instance/subscribe`, history.subscribe, ACCOUNT],

  // Workers KV
  ["GET", K, kv.listNamespaces, ACCOUNT],
  ["POST", K, kv.createNamespace, ACCOUNT],
  ["GET", `${K}/:ns`, kv.getNamespace, ACCOUNT],
  ["PUT", `${K}/:ns`, kv.renameNamespace, ACCOUNT],
  ["DELETE", `${K}/:ns`, kv.deleteNamespace, ACCOUNT],
  ["GET", `${K}/:ns/keys`, kv.listKeys, ACCOUNT],
  ["GET", `${K}/:ns/values/*key`, kv.getValue, ACCOUNT],
  ["PUT", `${K}/:ns/values/*key`, kv.putValue, ACCOUNT],
  ["DELETE", `${K}/:ns/values/*key`, kv.deleteValue, ACCOUNT],
  ["GET", `${K}/:ns/metadata/*key`, kv.getKeyMetadata, ACCOUNT],
  ["PUT", `${K}/:ns/bulk`, kv.bulkPut, ACCOUNT],
  ["DELETE", `${K}/:ns/bulk`, kv.bulkDelete, ACCOUNT],
  ["POST", `${K}/:ns/bulk/delete`, kv.bulkDelete, ACCOUNT],
  ["POST", `${K}/:ns/bulk/get`, kv.bulkGet, ACCOUNT],

  // D1
  ["GET", D, d1.listDatabases, ACCOUNT],
  ["POST", D, d1.createDatabase, ACCOUNT],
  ["GET", `${D}/:db`, d1.databaseInfo, ACCOUNT],
  ["DELETE", `${D}/:db`, d1.deleteDatabase, ACCOUNT],
  ["PUT", `${D}/:db`, d1.putDatabase, ACCOUNT],
  ["PATCH", `${D}/:db`, d1.patchDatabase, ACCOUNT],
  ["POST", `${D}/:db/query`, d1.query, ACCOUNT],
  ["POST", `${D}/:db/raw`, d1.queryRaw, ACCOUNT],
  ["POST", `${D}/:db/import`, d1.importSql, ACCOUNT],
  ["POST", `${D}/:db/export`, d1.exportSql, ACCOUNT],
  ["GET", `${D}/:db/time_travel/bookmark`, d1.timeTravel, ACCOUNT],
  ["POST", `${D}/:db/time_travel/restore`, d1.timeTravel, ACCOUNT],

  // R2
  ["GET", R, r2.listBuckets, ACCOUNT],
  ["POST", R, r2.createBucket, ACCOUNT],
  ["GET", `${R}/:bucket`, r2.getBucket, ACCOUNT],
  ["DELETE", `${R}/:bucket`, r2.deleteBucket, ACCOUNT],
  ["PATCH", `${R}/:bucket`, r2.patchBucket, ACCOUNT],
  ["GET", `${R}/:bucket/objects`, r2.listObjects, ACCOUNT],
  ["GET", `${R}/:bucket/objects/*key`, r2.getObject, ACCOUNT],
  ["PUT", `${R}/:bucket/objects/*key`, r2.putObject, ACCOUNT],
  ["DELETE", `${R}/:bucket/objects/*key`, r2.deleteObject, ACCOUNT],

  // worker logs and tail sessions (`…/logs` is the edge's own route, not Cloudflare's)
  ["POST", `${S}/tails`, logs.createTail, ACCOUNT],
  ["GET", `${S}/tails`, logs.listTails, ACCOUNT],
  ["DELETE", `${S}/tails/:tail`, logs.deleteTail, ACCOUNT],
  ["GET", `${S}/logs`, logs.workerLogs, ACCOUNT],
];

// ROUTES is the table as {method, pattern, handler, auth}, in order.
export const ROUTES = Object.freeze(
  TABLE.map(([method, pattern, handler, auth]) => Object.freeze({ method, pattern, handler, auth })),
);
