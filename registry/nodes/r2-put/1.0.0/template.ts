// R2 Put 1.0.0: R2Bucket.put on the binding named in the config.
// https://developers.cloudflare.com/r2/api/workers/workers-api-reference/#bucket-method-definitions

interface Config {
  binding: string;
  key: string;
  content: string;
  contentType?: string;
}

interface Output {
  key: string;
  size: number;
  etag: string;
  uploaded: string;
}

export default async function r2Put(ctx: { config: Config; env: Record<string, unknown> }): Promise<Output> {
  const { config } = ctx;
  const bucket = ctx.env[config.binding] as R2Bucket | undefined;
  if (!bucket || typeof bucket.put !== "function") {
    throw new Error(`R2: no R2 bucket is bound as ${config.binding}`);
  }
  const content = typeof config.content === "string" ? config.content : JSON.stringify(config.content);
  const object = await bucket.put(config.key, content, {
    httpMetadata: { contentType: config.contentType || "text/plain; charset=utf-8" },
  });
  if (object === null) {
    throw new Error(`R2: the upload of ${config.key} was refused`);
  }
  return { key: object.key, size: object.size, etag: object.etag, uploaded: object.uploaded.toISOString() };
}
