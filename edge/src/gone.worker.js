// Bindings to deleted resources. A worker keeps a binding to a KV namespace, D1 database or R2 bucket that was
// deleted after it was deployed; on Cloudflare every operation through such a binding then fails. The edge binds
// these in its place, as workerd wrapped bindings made by its miniflare plugin (goneplugin.mjs, plan.mjs): each
// named export builds the binding object from its inner bindings (ID: the deleted resource's id or name) and every operation fails with the error a worker
// sees for that kind of resource (docs/edge.md, "Deleted resources").

function failing(message) {
  return () => Promise.reject(new Error(message));
}

// kv fails every KV operation as the runtime reports a namespace that no longer exists.
export function kv(env) {
  const fail = (op) => failing(`KV ${op} failed: 404 Not Found (namespace ${env.ID} was deleted)`);
  return {
    get: fail("GET"),
    getWithMetadata: fail("GET"),
    put: fail("PUT"),
    delete: fail("DELETE"),
    list: fail("LIST"),
  };
}

// r2 fails every R2 operation with R2's "no such bucket" error (code 10006).
export function r2(env) {
  const fail = (op) => failing(`${op}: The specified bucket does not exist. (10006) (bucket ${env.ID} was deleted)`);
  const upload = (key, uploadId) => ({
    key,
    uploadId,
    uploadPart: fail("uploadPart"),
    abort: fail("abortMultipartUpload"),
    complete: fail("completeMultipartUpload"),
  });
  return {
    head: fail("head"),
    get: fail("get"),
    put: fail("put"),
    delete: fail("delete"),
    list: fail("list"),
    createMultipartUpload: fail("createMultipartUpload"),
    resumeMultipartUpload: upload,
  };
}

// d1 fails every D1 statement and batch with D1's error for a database that does not exist.
export function d1(env) {
  const message = `D1_ERROR: The database ${env.ID} could not be found (it was deleted)`;
  const fail = failing(message);
  const statement = () => {
    const st = { first: fail, all: fail, run: fail, raw: fail, bind: () => st };
    return st;
  };
  const db = {
    prepare: statement,
    batch: fail,
    exec: fail,
    dump: fail,
    withSession: () => db,
    getBookmark: () => null,
  };
  return db;
}
