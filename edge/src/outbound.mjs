// The outbound guard: every fetch a deployed worker makes leaves workerd through here (miniflare's
// outboundService), so that worker code cannot reach this machine's loopback, link-local or private addresses —
// edgeflow's API, the edge's own ports, workerd's sockets, a cloud metadata service — unless the operator allows
// the host (--allow-hosts). Host names are resolved here, every address is checked, and the connection goes to
// the checked addresses only (no second lookup a DNS rebinding could answer differently).
//
// Inside workerd the user workers' outbound service is a small handler (GUARD_WORKER_SOURCE) that hands the
// request to checkedFetch in Node through a service binding and turns a refusal into a thrown Error, so the
// caller's fetch rejects with a message that names the address and the reason.

import dns from "node:dns";
import { createRequire } from "node:module";
import net from "node:net";
import { Response } from "./miniflare.mjs";

// undici is the HTTP client miniflare itself depends on (its exact version); we take miniflare's copy.
const undici = createRequire(createRequire(import.meta.url).resolve("miniflare"))("undici");

// USER_IO_WORKER is the edge's worker for what a group's user workers send out of workerd: their outbound fetches
// (its fetch handler, the guard below) and their streaming tail events (its tailStream handler, the log tail of
// logs.mjs). One worker, not two: miniflare gives every worker two isolates more (an outbound interceptor and a Cache
// API entry), and each isolate costs every start of the workerd CPU (decision 806). groups.mjs puts it together.
export const USER_IO_WORKER = "__edgeflow_io";
export const REFUSED_HEADER = "x-edgeflow-outbound-refused";

export const GUARD_WORKER_SOURCE = `
export default {
  async fetch(request, env) {
    const res = await env.CHECKED.fetch(request);
    if (res.headers.get("${REFUSED_HEADER}") === "1") throw new Error(await res.text());
    return res;
  },
};
`;

// Blocked IPv4 ranges: [first address as a 32-bit number, prefix length, reason].
const V4_BLOCKED = [
  ["0.0.0.0", 8, "an unspecified (this-network) address"],
  ["10.0.0.0", 8, "a private address"],
  ["100.64.0.0", 10, "a carrier-grade NAT (shared) address"],
  ["127.0.0.0", 8, "a loopback address"],
  ["169.254.0.0", 16, "a link-local address"],
  ["172.16.0.0", 12, "a private address"],
  ["192.0.0.0", 24, "an IETF protocol assignment address"],
  ["192.168.0.0", 16, "a private address"],
  ["198.18.0.0", 15, "a benchmarking address"],
  ["224.0.0.0", 4, "a multicast address"],
  ["240.0.0.0", 4, "a reserved address"],
].map(([a, bits, reason]) => [v4Number(a), bits, reason]);

function v4Number(s) {
  return s.split(".").reduce((n, p) => n * 256 + Number(p), 0);
}

function inV4(n, base, bits) {
  if (bits === 0) return true;
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(base / size);
}

// v6Bytes parses an IPv6 address (no brackets, no zone) into 16 bytes, or null.
export function v6Bytes(s) {
  s = s.replace(/%.*$/, "");
  if (!net.isIPv6(s)) return null;
  let tail = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const n = v4Number(dotted[1]);
    tail = [(n >>> 16) & 0xffff, n & 0xffff];
    s = s.slice(0, -dotted[1].length);
    if (!s.endsWith("::")) s = s.slice(0, -1);
  }
  const [head, rest] = s.includes("::") ? s.split("::") : [s, null];
  const parse = (part) => (part === "" ? [] : part.split(":").map((h) => parseInt(h, 16)));
  const hi = parse(head);
  const lo = rest === null ? [] : parse(rest);
  const words =
    rest === null
      ? [...hi, ...tail]
      : [...hi, ...new Array(8 - hi.length - lo.length - tail.length).fill(0), ...lo, ...tail];
  if (words.length !== 8) return null;
  const out = new Uint8Array(16);
  words.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

function bytesToV4(b, at) {
  return `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
}

function prefixEqual(a, b, bits) {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((a[byte] & mask) !== (b[byte] & mask)) return false;
  }
  return true;
}

const V6 = (s) => v6Bytes(s);
// V6_BLOCKED is checked before the IPv4 address an IPv6 address may carry, V6_NOT_GLOBAL after it (so that
// 64:ff9b:1::a00:1 is named by its private IPv4 address rather than by its prefix). internal/netguard keeps the
// same lists; internal/netguard/testdata/addresses.json is the table both are tested against.
const V6_BLOCKED = [
  [V6("::"), 128, "an unspecified address"],
  [V6("::1"), 128, "a loopback address"],
  [V6("fc00::"), 7, "a private (unique local) address"],
  [V6("fe80::"), 10, "a link-local address"],
  [V6("fec0::"), 10, "a site-local address"],
  [V6("ff00::"), 8, "a multicast address"],
];
const V6_NOT_GLOBAL = [
  [V6("64:ff9b:1::"), 48, "a local-use IPv4/IPv6 translation address"],
  [V6("100::"), 64, "a discard-only address"],
  [V6("2001:2::"), 48, "a benchmarking address"],
  [V6("2001:db8::"), 32, "a documentation address"],
  [V6("3fff::"), 20, "a documentation address"],
];
// IPv6 forms that carry IPv4 addresses: [prefix, prefix length, [[byte offset, stored inverted], ...]]. An
// address of these forms is refused when any IPv4 address it carries is.
const V6_EMBEDS_V4 = [
  [V6("::ffff:0:0"), 96, [[12, false]]], // IPv4-mapped
  [V6("::ffff:0:0:0"), 96, [[12, false]]], // IPv4-translated (SIIT)
  [V6("::"), 96, [[12, false]]], // IPv4-compatible (deprecated)
  [V6("64:ff9b::"), 96, [[12, false]]], // NAT64 well-known prefix
  [V6("64:ff9b:1::"), 48, [[12, false]]], // NAT64 local-use prefix as a /96
  [V6("2002::"), 16, [[2, false]]], // 6to4
  [
    V6("2001::"),
    32,
    [
      [4, false],
      [12, true],
    ],
  ], // Teredo: server, client
];
// 2000::/3 is the only range IANA allocates for global unicast; an address outside it that is neither
// IPv4-mapped nor NAT64 is reachable on no public network.
const V6_GLOBAL_UNICAST = [V6("2000::"), 3];
const V6_MAPPED = [V6("::ffff:0:0"), 96];
const V6_NAT64 = [V6("64:ff9b::"), 96];

// classify says why an IP address is not reachable by default, or returns null for a public address. Every IPv6
// spelling of an IPv4 address is judged by that IPv4 address (mapped, translated, compatible, NAT64, 6to4,
// Teredo); an IPv6 address outside global unicast that is not an IPv4-mapped or NAT64 address of a public IPv4
// address is reserved.
export function classify(ip) {
  if (net.isIPv4(ip)) {
    const n = v4Number(ip);
    for (const [base, bits, reason] of V4_BLOCKED) if (inV4(n, base, bits)) return reason;
    return null;
  }
  const b = v6Bytes(ip);
  if (b === null) return "not an IP address";
  for (const [base, bits, reason] of V6_BLOCKED) if (prefixEqual(b, base, bits)) return reason;
  for (const [base, bits, places] of V6_EMBEDS_V4) {
    if (!prefixEqual(b, base, bits)) continue;
    for (const [at, inverted] of places) {
      const v4 = inverted ? b.slice(at, at + 4).map((x) => x ^ 0xff) : b.slice(at, at + 4);
      const inner = classify(bytesToV4(v4, 0));
      if (inner !== null) return `${inner} (embedded in an IPv6 address)`;
    }
  }
  for (const [base, bits, reason] of V6_NOT_GLOBAL) if (prefixEqual(b, base, bits)) return reason;
  const within = ([base, bits]) => prefixEqual(b, base, bits);
  if (!within(V6_GLOBAL_UNICAST) && !within(V6_MAPPED) && !within(V6_NAT64)) return "a reserved address";
  return null;
}

// AllowList holds the hosts an operator opened although they are private or loopback: host names (matched
// exactly, case-insensitively), IP addresses and CIDR ranges.
export class AllowList {
  constructor(entries = []) {
    this.names = new Set();
    this.v4 = [];
    this.v6 = [];
    for (const raw of entries) {
      const e = raw
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, "");
      if (e === "") continue;
      const [addr, bitsText] = e.split("/");
      if (net.isIPv4(addr)) {
        const bits = bitsText === undefined ? 32 : Number(bitsText);
        if (!Number.isInteger(bits) || bits < 0 || bits > 32) throw new Error(`allow list: bad CIDR '${raw}'`);
        this.v4.push([v4Number(addr), bits]);
      } else if (net.isIPv6(addr)) {
        const bits = bitsText === undefined ? 128 : Number(bitsText);
        if (!Number.isInteger(bits) || bits < 0 || bits > 128) throw new Error(`allow list: bad CIDR '${raw}'`);
        this.v6.push([v6Bytes(addr), bits]);
      } else if (bitsText === undefined && /^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/.test(addr)) {
        this.names.add(addr.replace(/\.$/, ""));
      } else {
        throw new Error(`allow list: '${raw}' is not a host name, IP address or CIDR range`);
      }
    }
  }

  static parse(text) {
    return new AllowList((text ?? "").split(/[\s,]+/));
  }

  allowsName(host) {
    return this.names.has(host.toLowerCase().replace(/\.$/, ""));
  }

  allowsAddress(ip) {
    if (net.isIPv4(ip)) {
      const n = v4Number(ip);
      return this.v4.some(([base, bits]) => inV4(n, base, bits));
    }
    const b = v6Bytes(ip);
    if (b === null) return false;
    if (this.v6.some(([base, bits]) => prefixEqual(b, base, bits))) return true;
    // an IPv4 rule also covers the IPv4-mapped form of its addresses
    if (prefixEqual(b, V6("::ffff:0:0"), 96)) return this.allowsAddress(bytesToV4(b, 12));
    return false;
  }
}

export class Refusal extends Error {}

// checkHost resolves host (a URL's hostname) and answers the addresses a connection may use. It throws a
// Refusal naming the address and the reason when any address is not allowed.
export async function checkHost(host, allow, lookup = dns.promises.lookup) {
  const bare = host.replace(/^\[|\]$/g, "");
  const named = net.isIP(bare) === 0;
  if (named && allow.allowsName(bare)) {
    return (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
  }
  let addrs;
  if (!named) {
    addrs = [bare];
  } else {
    try {
      addrs = (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    } catch (err) {
      throw new Refusal(`edgeflow could not resolve ${bare}: ${err.code ?? err.message}`);
    }
  }
  for (const ip of addrs) {
    const reason = classify(ip);
    if (reason !== null && !allow.allowsAddress(ip)) {
      const via = named ? `${bare} resolves to ${ip}, ` : `${ip} is `;
      throw new Refusal(
        `edgeflow refused the request to ${bare}: ${via}${reason}; workers may not reach loopback, link-local or private addresses unless the operator allows the host (edgeflow serve --allow-hosts)`,
      );
    }
  }
  return addrs;
}

// OutboundGuard performs the checked fetches for the guard worker.
export class OutboundGuard {
  constructor({ allow = new AllowList(), logger = () => {}, lookup } = {}) {
    this.allow = allow;
    this.logger = logger;
    this.lookup = lookup ?? dns.promises.lookup;
    this.checked = new Map(); // host name -> addresses that passed the check
    this.gatewayPort = 0; // the edge's own port once it listens (allowGateway)
    this.agent = new undici.Agent({ connect: { lookup: (h, o, cb) => this.#pinnedLookup(h, o, cb) } });
  }

  // fetch is the service-binding function the guard worker calls: it answers the upstream response, or a
  // refusal marked with REFUSED_HEADER whose body is the message.
  fetch = async (request) => {
    let url;
    try {
      url = new URL(request.url);
    } catch {
      return refused(`edgeflow refused the request: '${request.url}' is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return refused(`edgeflow refused the request to ${url.protocol}//${url.host}: only http and https are allowed`);
    }
    let addrs;
    if (this.#isGateway(url)) {
      addrs = ["127.0.0.1"];
    } else {
      try {
        addrs = await checkHost(url.hostname, this.allow, this.lookup);
      } catch (err) {
        if (err instanceof Refusal) return refused(err.message);
        return refused(`edgeflow refused the request to ${url.hostname}: ${err.message}`);
      }
    }
    this.#remember(url.hostname.replace(/^\[|\]$/g, ""), addrs);
    try {
      const headers = new undici.Headers();
      for (const [k, v] of request.headers) headers.append(k, v);
      const init = { method: request.method, headers, redirect: "manual", dispatcher: this.agent };
      if (request.method !== "GET" && request.method !== "HEAD" && request.body) {
        init.body = request.body;
        init.duplex = "half";
      }
      const res = await undici.fetch(url, init);
      const out = new Headers();
      for (const [k, v] of res.headers) if (k !== REFUSED_HEADER) out.append(k, v);
      const noBody = res.status === 204 || res.status === 304 || request.method === "HEAD";
      return new Response(noBody ? null : res.body, { status: res.status, statusText: res.statusText, headers: out });
    } catch (err) {
      const cause = err?.cause?.code ?? err?.cause?.message ?? err.message;
      return refused(`fetch to ${url.host} failed: ${cause}`, 502);
    }
  };

  // allowGateway opens the edge's own workers gateway, http://127.0.0.1:PORT/workers/…, to worker code: the
  // address that answers worker URLs, which any caller on this machine can reach already. As on Cloudflare, where
  // a worker may fetch another worker's workers.dev URL, a workflow can then call a function's url. Nothing else of
  // that port opens: its API (/client/v4), its admin routes (/__edge) and its health check stay refused, and so do
  // its other spellings (localhost, [::1], 127.1) and every other port.
  allowGateway(port) {
    this.gatewayPort = port;
  }

  // #isGateway says whether url is a worker URL of the edge's own gateway. The URL parser has already resolved
  // "." and ".." segments (also percent-encoded ones), and the path sent is exactly the parsed one, so a path
  // that starts with /workers/ here is a worker request at the gateway (gateway.mjs sends it to a worker or
  // answers 404, never to the API).
  #isGateway(url) {
    return (
      this.gatewayPort !== 0 &&
      url.protocol === "http:" &&
      url.hostname === "127.0.0.1" &&
      url.port === String(this.gatewayPort) &&
      url.username === "" &&
      url.password === "" &&
      url.pathname.startsWith("/workers/")
    );
  }

  // #remember notes the checked addresses of a host name; the agent's lookup connects to these only, so a
  // second DNS answer (rebinding) never decides where a connection goes.
  #remember(host, addrs) {
    if (net.isIP(host) !== 0) return;
    if (this.checked.size > 10000) this.checked.clear();
    this.checked.set(host.toLowerCase(), addrs);
  }

  #pinnedLookup = (hostname, opts, cb) => {
    const addrs = this.checked.get(String(hostname).toLowerCase()) ?? [];
    const family = opts?.family;
    const list = addrs
      .filter((a) => !family || net.isIP(a) === family)
      .map((a) => ({ address: a, family: net.isIP(a) }));
    if (list.length === 0) {
      cb(Object.assign(new Error(`${hostname} has no checked address`), { code: "ENOTFOUND" }));
      return;
    }
    if (opts?.all) cb(null, list);
    else cb(null, list[0].address, list[0].family);
  };

  close() {
    return this.agent.close().catch(() => {});
  }
}

function refused(message, status = 403) {
  return new Response(message, {
    status,
    headers: { [REFUSED_HEADER]: "1", "content-type": "text/plain" },
  });
}
