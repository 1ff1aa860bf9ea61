// Notion Page 1.2.0: POST {baseUrl}/v1/pages with Notion-Version 2022-06-28
// and a database parent.
// https://developers.notion.com/reference/post-page

interface Config {
  databaseId: string;
  title: string;
  titleProperty?: string;
  properties?: unknown;
  content?: string;
  baseUrl?: string;
}

interface Output {
  id: string;
  url: string;
  createdTime: string;
}

interface PageResponse {
  id?: string;
  url?: string;
  created_time?: string;
  code?: string;
  message?: string;
}

// Notion limits one rich text object to 2000 characters.
const maxText = 2000;

function paragraphs(content: string): unknown[] {
  const blocks: unknown[] = [];
  for (const para of content.split(/\r?\n\s*\r?\n/)) {
    const text = para.trim();
    if (text === "") continue;
    const richText: unknown[] = [];
    for (let i = 0; i < text.length; i += maxText) {
      richText.push({ type: "text", text: { content: text.slice(i, i + maxText) } });
    }
    blocks.push({ object: "block", type: "paragraph", paragraph: { rich_text: richText } });
  }
  return blocks;
}

export default async function notionPage(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const token = ctx.env["NOTION_TOKEN"];
  if (typeof token !== "string" || token === "") {
    throw new Error("Notion: the secret NOTION_TOKEN is not set");
  }
  const extra = config.properties;
  if (extra !== undefined && extra !== null && (typeof extra !== "object" || Array.isArray(extra))) {
    throw new Error("Notion: properties must be a JSON object of property values");
  }
  const properties: Record<string, unknown> = { ...((extra as Record<string, unknown> | null | undefined) ?? {}) };
  properties[config.titleProperty || "Name"] = { title: [{ type: "text", text: { content: config.title } }] };
  const body: Record<string, unknown> = { parent: { database_id: config.databaseId }, properties };
  const children = paragraphs(config.content ?? "");
  if (children.length > 0) body.children = children;

  const base = (config.baseUrl || "https://api.notion.com").replace(/\/+$/, "");
  const res = await fetch(`${base}/v1/pages`, {
    method: "POST",
    headers: {
      ...ctx.trace,
      Authorization: `Bearer ${token}`,
      "Notion-Version": "2022-06-28",
      "Content-Type": "application/json",
    },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  let data: PageResponse = {};
  try {
    data = JSON.parse(raw) as PageResponse;
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    const detail = data.message ? `${data.code ? `${data.code}: ` : ""}${data.message}` : raw.slice(0, 500);
    throw new Error(`Notion create page failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${detail}`);
  }
  return { id: data.id ?? "", url: data.url ?? "", createdTime: data.created_time ?? "" };
}
