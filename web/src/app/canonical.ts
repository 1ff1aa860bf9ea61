// canonicalJSON writes a value as JSON with the keys of every object sorted, so that two IRs that differ only in
// the order of their keys (an editor may rebuild objects in its own order) compare equal.
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(o).sort()) sorted[k] = o[k];
    return sorted;
  });
}
