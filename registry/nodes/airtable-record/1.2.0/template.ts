// Airtable Record 1.2.0: POST {baseUrl}/v0/{baseId}/{table}.
// https://airtable.com/developers/web/api/create-records

interface Config {
  baseId: string;
  table: string;
  fields: unknown;
  typecast?: boolean;
  baseUrl?: string;
}

interface Output {
  id: string;
  createdTime: string;
  fields: Record<string, unknown>;
}

interface RecordResponse {
  id?: string;
  createdTime?: string;
  fields?: Record<string, unknown>;
  error?: string | { type?: string; message?: string };
}

export default async function airtableRecord(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const token = ctx.env["AIRTABLE_TOKEN"];
  if (typeof token !== "string" || token === "") {
    throw new Error("Airtable: the secret AIRTABLE_TOKEN is not set");
  }
  if (typeof config.fields !== "object" || config.fields === null || Array.isArray(config.fields)) {
    throw new Error("Airtable: fields must be a JSON object of cell values");
  }
  const base = (config.baseUrl || "https://api.airtable.com").replace(/\/+$/, "");
  const res = await fetch(`${base}/v0/${encodeURIComponent(config.baseId)}/${encodeURIComponent(config.table)}`, {
    method: "POST",
    headers: { ...ctx.trace, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ fields: config.fields, typecast: config.typecast ?? false }),
  });
  const raw = await res.text();
  let data: RecordResponse = {};
  try {
    data = JSON.parse(raw) as RecordResponse;
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    let detail = raw.slice(0, 500);
    if (typeof data.error === "string") {
      detail = data.error;
    } else if (data.error) {
      detail = `${data.error.type ?? "error"}: ${data.error.message ?? ""}`;
    }
    throw new Error(`Airtable create record failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${detail}`);
  }
  return { id: data.id ?? "", createdTime: data.createdTime ?? "", fields: data.fields ?? {} };
}
