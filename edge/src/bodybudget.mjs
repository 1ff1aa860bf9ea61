// The bytes the binding proxy (d1host.mjs) holds at once (decision 785). The proxy reads a binding call's body whole
// before it passes it on (a shard's KV and R2 calls, a Workflow binding's calls, D1's): each call has its own limit,
// but many calls at once — one worker can start a hundred puts of 25 MiB in one request — would add up to more memory
// than the edge has. A call whose body would take the proxy past the budget is refused as overloaded (the store's
// own "try again" error), and its bytes are given back at once; the others go on. EDGEFLOW_EDGE_BINDING_BUFFER
// (bytes) sets the budget; the default, 256 MiB, holds two R2 calls of the largest size at once.

export const DEFAULT_BINDING_BUFFER = 256 * 1024 * 1024;

export class BodyBudget {
  constructor(limit = DEFAULT_BINDING_BUFFER) {
    this.limit = limit;
    this.held = 0; // bytes held now
    this.refused = 0; // calls refused for the budget so far
  }

  // read reads req's body within maxBytes (one call's limit) and the budget: {body, release} (release gives the
  // bytes back once the call is done), or {error: "too_large" | "busy"} with nothing held.
  async read(req, maxBytes) {
    const chunks = [];
    let size = 0;
    const giveBack = () => {
      this.held -= size;
      size = 0;
    };
    try {
      for await (const c of req) {
        if (size + c.length > maxBytes) {
          giveBack();
          return { error: "too_large" };
        }
        if (this.held + c.length > this.limit) {
          giveBack();
          this.refused++;
          return { error: "busy" };
        }
        this.held += c.length;
        size += c.length;
        chunks.push(c);
      }
    } catch (err) {
      giveBack();
      throw err;
    }
    let released = false;
    return {
      body: Buffer.concat(chunks),
      release: () => {
        if (!released) giveBack();
        released = true;
      },
    };
  }
}

// bindingBudget answers the budget EDGEFLOW_EDGE_BINDING_BUFFER sets (bytes, an integer ≥ 1 MiB), or throws an Error
// naming the variable.
export function bindingBudget(env = process.env) {
  const v = env.EDGEFLOW_EDGE_BINDING_BUFFER;
  if (v === undefined || v === "") return new BodyBudget();
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1024 * 1024)
    throw new Error(
      `EDGEFLOW_EDGE_BINDING_BUFFER must be a number of bytes of at least 1048576, not ${JSON.stringify(v)}`,
    );
  return new BodyBudget(n);
}
