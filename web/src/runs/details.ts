// Details of a run in the runs list: how long ago it was created, in words, and a one-line preview of its params.

const units: [number, Intl.RelativeTimeFormatUnit][] = [
  [60, "second"],
  [60, "minute"],
  [24, "hour"],
  [7, "day"],
  [4.35, "week"],
  [12, "month"],
  [Number.POSITIVE_INFINITY, "year"],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

// relativeTime says how long before now an instant was ("5 minutes ago", "yesterday"); "—" for none or an invalid
// one. An instant in the future (a clock ahead of ours) reads as "now".
export function relativeTime(iso: string | null | undefined, now: number): string {
  if (!iso) return "—";
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return "—";
  let amount = Math.max(0, (now - t) / 1000);
  if (amount < 10) return "just now";
  for (const [size, unit] of units) {
    if (amount < size) return relative.format(-Math.floor(amount), unit);
    amount /= size;
  }
  return "—";
}

// paramsPreview is params as compact JSON on one line, cut at max characters with "…"; "" for none or {}.
export function paramsPreview(params: unknown, max = 60): string {
  if (params === undefined || params === null) return "";
  const s = JSON.stringify(params);
  if (s === undefined || s === "{}") return "";
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
