// The edge's error and the Cloudflare API codes it answers with. This module imports nothing, so that every other
// module may import it (edge/test/imports.test.mjs keeps the edge's modules free of import cycles).
//
// Cloudflare's products give some numbers more than one meaning (10007 is a missing script in Workers and a missing
// object in R2; 10001 is both bad input and a failure with no code of its own): each meaning has its own name here.

// EdgeError is a failure the API answers in Cloudflare's envelope: HTTP status, Cloudflare code and message
// (http.mjs, sendError). errors, when set, lists one {code, message} per refused item of a bulk request.
export class EdgeError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// Tokens, accounts and routing.
export const INVALID_TOKEN = 1000; // the token verify routes: a token no account has (wrangler reads this code)
export const AUTHENTICATION_ERROR = 10000; // a token no account has, or one that may not use the route
export const UNAUTHORIZED = 9109; // a token acting on an account that is not its own
export const NO_ROUTE = 7003; // no route has this path
export const METHOD_NOT_ALLOWED = 10405; // a route has this path, but not for this method
export const INVALID_REQUEST = 10001; // bad input: a malformed body, a missing or wrong field, a bad parameter
export const INTERNAL_ERROR = 10001; // a failure with no code of its own: workerd not running, an internal error
export const ZONE_NOT_FOUND = 1001;
export const SUBDOMAIN_TAKEN = 10036;

// Workers scripts, their versions, deployments, bindings, secrets, routes and schedules.
export const SCRIPT_NOT_FOUND = 10007;
export const SERVICE_NOT_FOUND = 10090;
export const SCRIPT_INVALID = 10021; // an upload or setting Cloudflare refuses, or a configuration workerd does not start
export const VERSION_NOT_FOUND = 10214;
export const DEPLOYMENT_NOT_FOUND = 10216;
export const DEPLOYMENT_IS_LATEST = 10217; // the latest deployment serves and cannot be deleted
export const BINDING_NAME_IN_USE = 10053;
export const BINDING_NOT_INHERITED = 10057; // an `inherit` binding the previous version does not have
export const KV_BINDING_INVALID = 10042; // a binding to a KV namespace the account does not have
export const R2_BINDING_INVALID = 10085; // a binding to an R2 bucket the account does not have
export const D1_BINDING_INVALID = 10181; // a binding to a D1 database the account does not have
export const SECRET_NOT_FOUND = 10056;
export const ROUTE_NOT_FOUND = 10020;
export const ROUTE_INVALID = 10022; // a route without a pattern
export const CRON_INVALID = 10100;
export const TAIL_UNAVAILABLE = 10013; // this edge runs no tail sessions

// Workflows and their instances.
export const WORKFLOW_NOT_FOUND = 10200;
export const INSTANCE_NOT_FOUND = 10201; // the edge's choice for a GET, a status change or an event (since before 2026)
export const INSTANCE_EXISTS = 10405; // workflows.api.error.instance.already_exists, as the Workflows engine answers it
export const INSTANCE_DUPLICATE_IN_BATCH = 10415; // workflows.api.error.instance.duplicate_in_batch
export const INSTANCE_MISSING = 10400; // workflows.api.error.instance.not_found, in a batch delete's errors
export const INSTANCE_STATE = 10203; // the instance's status does not allow the action (resume a running one, …)
export const STEP_NOT_FOUND = 10204; // a step lookup names no step of the instance (local choice)
export const TOO_MANY_SUBSCRIPTIONS = 10429; // an account has as many instance event streams open as it may

// Workers KV.
export const KV_KEY_NOT_FOUND = 10009;
export const KV_NAMESPACE_NOT_FOUND = 10013;
export const KV_NAMESPACE_EXISTS = 10014;
export const KV_INVALID_NAME = 10019; // a key name or namespace title KV refuses

// R2.
export const R2_BUCKET_EXISTS = 10004;
export const R2_BUCKET_NAME_INVALID = 10005;
export const R2_BUCKET_NOT_FOUND = 10006;
export const R2_OBJECT_NOT_FOUND = 10007;
export const R2_BUCKET_NOT_EMPTY = 10008;

// D1.
export const D1_INVALID = 7400; // bad input to a D1 route
export const D1_NOT_FOUND = 7404;
export const D1_ERROR = 7500; // a query stopped or failed, a database busy or unavailable, a feature the edge lacks
export const D1_NAME_TAKEN = 7502;
