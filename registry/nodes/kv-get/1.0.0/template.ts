// KV Get 1.0.0: KVNamespace.get on the binding named in the config.
// https://developers.cloudflare.com/kv/api/read-key-value-pairs/

interface Config {
  binding: string;
  key: string;
  type?: "text" | "json";
  cacheTtl?: number;
}

interface Output {
  found: boolean;
  value: unknown;
}

export default async function kvGet(ctx: { config: Config; env: Record<string, unknown> }): Promise<Output> {
  const { config } = ctx;
  const ns = ctx.env[config.binding] as KVNamespace | undefined;
  if (!ns || typeof ns.get !== "function") {
    throw new Error(`KV: no KV namespace is bound as ${config.binding}`);
  }
  const options = typeof config.cacheTtl === "number" ? { cacheTtl: config.cacheTtl } : {};
  const text = await ns.get(config.key, { type: "text", ...options });
  if (text === null) {
    return { found: false, value: null };
  }
  if (config.type === "json") {
    try {
      return { found: true, value: JSON.parse(text) as unknown };
    } catch {
      throw new Error(`KV: the value of ${config.key} is not JSON`);
    }
  }
  return { found: true, value: text };
}
