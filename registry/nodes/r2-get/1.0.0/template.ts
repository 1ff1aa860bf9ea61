// R2 Get 1.0.0: R2Bucket.get on the binding named in the config.
// https://developers.cloudflare.com/r2/api/workers/workers-api-reference/#bucket-method-definitions

interface Config {
  binding: string;
  key: string;
  type?: "text" | "json";
}

interface Output {
  found: boolean;
  key: string;
  value: unknown;
  size: number | null;
  etag: string | null;
  contentType: string | null;
  uploaded: string | null;
}

export default async function r2Get(ctx: { config: Config; env: Record<string, unknown> }): Promise<Output> {
  const { config } = ctx;
  const bucket = ctx.env[config.binding] as R2Bucket | undefined;
  if (!bucket || typeof bucket.get !== "function") {
    throw new Error(`R2: no R2 bucket is bound as ${config.binding}`);
  }
  const object = await bucket.get(config.key);
  if (object === null) {
    return { found: false, key: config.key, value: null, size: null, etag: null, contentType: null, uploaded: null };
  }
  const text = await object.text();
  let value: unknown = text;
  if (config.type === "json") {
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      throw new Error(`R2: the object ${config.key} is not JSON`);
    }
  }
  return {
    found: true,
    key: object.key,
    value,
    size: object.size,
    etag: object.etag,
    contentType: object.httpMetadata?.contentType ?? null,
    uploaded: object.uploaded.toISOString(),
  };
}
