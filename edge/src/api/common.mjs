// What the API's handler modules share: body size limits and a bounded-concurrency map.

// JSON_LIMIT, UPLOAD_LIMIT and VALUE_LIMIT are the largest JSON body, worker upload and KV value the API reads.
export const JSON_LIMIT = 10 << 20;
export const UPLOAD_LIMIT = 100 << 20;
export const VALUE_LIMIT = 25 << 20;

// mapLimit calls fn on every item, at most limit at a time.
export async function mapLimit(items, limit, fn) {
  let i = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (i < items.length) {
      const idx = i++;
      await fn(items[idx], idx);
    }
  });
  await Promise.all(workers);
}
