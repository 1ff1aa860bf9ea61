// KV Put 1.0.0: KVNamespace.put on the binding named in the config.
// https://developers.cloudflare.com/kv/api/write-key-value-pairs/

interface Config {
  binding: string;
  key: string;
  value: string;
  expirationTtl?: number;
}

interface Output {
  key: string;
  expiresAt: number | null;
}

export default async function kvPut(ctx: { config: Config; env: Record<string, unknown> }): Promise<Output> {
  const { config } = ctx;
  const ns = ctx.env[config.binding] as KVNamespace | undefined;
  if (!ns || typeof ns.put !== "function") {
    throw new Error(`KV: no KV namespace is bound as ${config.binding}`);
  }
  const value = typeof config.value === "string" ? config.value : JSON.stringify(config.value);
  if (typeof config.expirationTtl === "number") {
    const ttl = Math.floor(config.expirationTtl);
    await ns.put(config.key, value, { expirationTtl: ttl });
    return { key: config.key, expiresAt: Math.floor(Date.now() / 1000) + ttl };
  }
  await ns.put(config.key, value);
  return { key: config.key, expiresAt: null };
}
