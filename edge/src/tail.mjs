// Tail sessions: Cloudflare's `POST …/workers/scripts/{name}/tails` creates one and answers the URL of a websocket
// (subprotocol trace-v1) on which every finished invocation of the worker arrives as one JSON trace item, as
// `wrangler tail` expects. The websocket URL holds the session's id, a random secret, as on Cloudflare (wrangler
// opens it without the API token). A session expires after SESSION_MS; its filters are Cloudflare's (outcome,
// method, sampling_rate, query, header, client_ip). docs/edge.md, "Logs and wrangler tail".

import crypto from "node:crypto";
import { EdgeError } from "./errors.mjs";

export const SESSION_MS = 6 * 60 * 60 * 1000;
export const MAX_SESSIONS_PER_SCRIPT = 10;
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
export const TAIL_PATH = "/__tail/";

// checkFilters validates a session's filters as Cloudflare does and returns them.
export function checkFilters(body) {
  const filters = body?.filters ?? [];
  if (!Array.isArray(filters)) throw new EdgeError(400, 10001, "filters must be an array");
  for (const f of filters) {
    if (f === null || typeof f !== "object" || Array.isArray(f))
      throw new EdgeError(400, 10001, "each filter must be an object");
    if ("sampling_rate" in f && !(typeof f.sampling_rate === "number" && f.sampling_rate > 0 && f.sampling_rate <= 1)) {
      throw new EdgeError(400, 10001, "sampling_rate must be a number above 0 and at most 1");
    }
    if ("outcome" in f && !(Array.isArray(f.outcome) && f.outcome.every((o) => typeof o === "string"))) {
      throw new EdgeError(400, 10001, "outcome must be an array of outcomes");
    }
    if ("method" in f && !(Array.isArray(f.method) && f.method.every((o) => typeof o === "string"))) {
      throw new EdgeError(400, 10001, "method must be an array of HTTP methods");
    }
    if ("query" in f && typeof f.query !== "string") throw new EdgeError(400, 10001, "query must be a string");
    if (
      "header" in f &&
      (typeof f.header?.key !== "string" || (f.header.query !== undefined && typeof f.header.query !== "string"))
    ) {
      throw new EdgeError(400, 10001, "header must be {key, query?}");
    }
    if ("client_ip" in f && !(Array.isArray(f.client_ip) && f.client_ip.every((o) => typeof o === "string"))) {
      throw new EdgeError(400, 10001, "client_ip must be an array of addresses");
    }
  }
  return filters;
}

// passes reports whether trace item passes every filter (all must hold, as on Cloudflare).
export function passes(item, filters) {
  const req = item.event?.request;
  for (const f of filters) {
    if (f.sampling_rate !== undefined && Math.random() >= f.sampling_rate) return false;
    if (f.outcome && !f.outcome.includes(item.outcome)) return false;
    if (f.method && !(req && f.method.map((m) => m.toUpperCase()).includes(String(req.method).toUpperCase())))
      return false;
    if (f.query !== undefined) {
      const text = JSON.stringify([item.logs, item.exceptions, req?.url ?? ""]);
      if (!text.includes(f.query)) return false;
    }
    if (f.header) {
      const v = req?.headers?.[f.header.key.toLowerCase()];
      if (v === undefined || (f.header.query !== undefined && !String(v).includes(f.header.query))) return false;
    }
    if (f.client_ip) {
      const ip = req?.headers?.["cf-connecting-ip"];
      if (!f.client_ip.includes("self") && !f.client_ip.includes(ip)) return false;
    }
  }
  return true;
}

// Tails holds the sessions of the whole edge; each belongs to one account's script.
export class Tails {
  constructor({ logs, port }) {
    this.logs = logs;
    this.port = port;
    this.sessions = new Map(); // id -> {id, account, script, rtName, filters, expires, sockets:Set}
    logs.listeners.add((rtName, item) => this.#deliver(rtName, item));
    logs.tracedScripts = () => {
      const now = Date.now();
      const out = new Set();
      for (const s of this.sessions.values()) if (s.expires > now) out.add(s.rtName);
      return [...out];
    };
  }

  create({ account, script, rtName, filters }) {
    this.#expire();
    const mine = [...this.sessions.values()].filter((s) => s.account === account && s.script === script);
    if (mine.length >= MAX_SESSIONS_PER_SCRIPT) {
      throw new EdgeError(
        429,
        10057,
        `worker ${script} has ${MAX_SESSIONS_PER_SCRIPT} tail sessions already; delete one first`,
      );
    }
    const id = crypto.randomBytes(16).toString("hex");
    const expires = Date.now() + SESSION_MS;
    this.sessions.set(id, { id, account, script, rtName, filters, expires, sockets: new Set(), debug: false });
    return this.json(this.sessions.get(id));
  }

  json(s) {
    return {
      id: s.id,
      url: `ws://127.0.0.1:${this.port}${TAIL_PATH}${s.id}`,
      expires_at: new Date(s.expires).toISOString(),
    };
  }

  list(account, script) {
    this.#expire();
    return [...this.sessions.values()]
      .filter((s) => s.account === account && s.script === script)
      .map((s) => this.json(s));
  }

  delete(account, script, id) {
    const s = this.sessions.get(id);
    if (!s || s.account !== account || s.script !== script) throw new EdgeError(404, 10000, `tail ${id} not found`);
    this.sessions.delete(id);
    for (const sock of s.sockets) sock.close(1000, "tail deleted");
  }

  // closeAll ends every session (the edge stops).
  closeAll() {
    for (const s of this.sessions.values()) for (const sock of s.sockets) sock.close(1001, "edge stopping");
    this.sessions.clear();
  }

  #expire() {
    const now = Date.now();
    for (const [id, s] of this.sessions) {
      if (s.expires <= now) {
        this.sessions.delete(id);
        for (const sock of s.sockets) sock.close(1000, "tail expired");
      }
    }
  }

  #deliver(rtName, item) {
    for (const s of this.sessions.values()) {
      if (s.rtName !== rtName || s.sockets.size === 0) continue;
      if (s.expires <= Date.now()) continue;
      if (!passes(item, s.filters)) continue;
      const text = JSON.stringify({ ...item, scriptName: s.script });
      for (const sock of s.sockets) sock.sendText(text);
    }
  }

  // upgrade answers a websocket upgrade on TAIL_PATH<id> (node:http's "upgrade" event); false: not a tail path.
  upgrade(req, socket, head) {
    const p = (req.url ?? "").split("?")[0];
    if (!p.startsWith(TAIL_PATH)) return false;
    this.#expire();
    const s = this.sessions.get(p.slice(TAIL_PATH.length));
    const key = req.headers["sec-websocket-key"];
    const protocols = String(req.headers["sec-websocket-protocol"] ?? "")
      .split(",")
      .map((x) => x.trim());
    const refuse = (status, text) => {
      socket.end(
        `HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
      );
    };
    if (!s) {
      refuse("404 Not Found", "no such tail session (it expired or was deleted)\n");
      return true;
    }
    if (!key || String(req.headers.upgrade).toLowerCase() !== "websocket") {
      refuse("400 Bad Request", "a websocket upgrade is expected\n");
      return true;
    }
    if (!protocols.includes("trace-v1")) {
      refuse("400 Bad Request", "the websocket subprotocol must be trace-v1\n");
      return true;
    }
    const accept = crypto
      .createHash("sha1")
      .update(key + WS_GUID)
      .digest("base64");
    socket.write(
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        `Sec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: trace-v1\r\n\r\n`,
    );
    const sock = new WebSocketConn(socket, head, {
      onText: (text) => {
        // wrangler sends {"debug": bool} once; nothing else is expected.
        try {
          const m = JSON.parse(text);
          if (typeof m?.debug === "boolean") s.debug = m.debug;
        } catch {
          // ignored, as Cloudflare does
        }
      },
      onClose: () => s.sockets.delete(sock),
    });
    s.sockets.add(sock);
    return true;
  }
}

// WebSocketConn is the server side of one websocket (RFC 6455): text frames out, pings answered, close handshake.
export class WebSocketConn {
  constructor(socket, head, { onText, onClose }) {
    this.socket = socket;
    this.onText = onText;
    this.onClose = onClose;
    this.buf = head && head.length ? Buffer.from(head) : Buffer.alloc(0);
    this.closed = false;
    this.fragments = [];
    socket.setNoDelay(true);
    socket.on("data", (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.#parse();
    });
    socket.on("close", () => this.#gone());
    socket.on("error", () => this.#gone());
    if (this.buf.length) this.#parse();
  }

  #gone() {
    if (this.closedNotified) return;
    this.closedNotified = true;
    this.closed = true;
    this.onClose?.();
  }

  #frame(opcode, payload) {
    const len = payload.length;
    let header;
    if (len < 126) header = Buffer.from([0x80 | opcode, len]);
    else if (len < 65536) {
      header = Buffer.alloc(4);
      header[0] = 0x80 | opcode;
      header[1] = 126;
      header.writeUInt16BE(len, 2);
    } else {
      header = Buffer.alloc(10);
      header[0] = 0x80 | opcode;
      header[1] = 127;
      header.writeBigUInt64BE(BigInt(len), 2);
    }
    return Buffer.concat([header, payload]);
  }

  sendText(text) {
    if (this.closed) return;
    this.socket.write(this.#frame(0x1, Buffer.from(text)));
  }

  close(code = 1000, reason = "") {
    if (this.closed) return;
    this.closed = true;
    const p = Buffer.alloc(2 + Buffer.byteLength(reason));
    p.writeUInt16BE(code, 0);
    p.write(reason, 2);
    this.socket.end(this.#frame(0x8, p));
    this.#gone();
  }

  #parse() {
    for (;;) {
      if (this.buf.length < 2) return;
      const b0 = this.buf[0];
      const b1 = this.buf[1];
      const fin = (b0 & 0x80) !== 0;
      const opcode = b0 & 0x0f;
      const masked = (b1 & 0x80) !== 0;
      let len = b1 & 0x7f;
      let off = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        const big = this.buf.readBigUInt64BE(2);
        if (big > 1n << 20n) {
          this.close(1009, "message too big");
          return;
        }
        len = Number(big);
        off = 10;
      }
      if (len > 1 << 20) {
        this.close(1009, "message too big");
        return;
      }
      const maskOff = off;
      if (masked) off += 4;
      if (this.buf.length < off + len) return;
      const payload = Buffer.from(this.buf.subarray(off, off + len));
      if (masked) for (let i = 0; i < payload.length; i++) payload[i] ^= this.buf[maskOff + (i % 4)];
      this.buf = this.buf.subarray(off + len);
      switch (opcode) {
        case 0x0:
        case 0x1:
        case 0x2:
          this.fragments.push(payload);
          if (fin) {
            const msg = Buffer.concat(this.fragments);
            this.fragments = [];
            if (opcode !== 0x2) this.onText?.(msg.toString("utf8"));
          }
          break;
        case 0x8:
          this.close(payload.length >= 2 ? payload.readUInt16BE(0) : 1000);
          return;
        case 0x9:
          if (!this.closed) this.socket.write(this.#frame(0xa, payload));
          break;
        default:
          break;
      }
    }
  }
}
