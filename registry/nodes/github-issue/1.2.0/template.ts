// GitHub Issue 1.2.0: POST {baseUrl}/repos/{owner}/{repo}/issues.
// https://docs.github.com/en/rest/issues/issues#create-an-issue

interface Config {
  owner: string;
  repo: string;
  title: string;
  body?: string;
  labels?: string;
  assignees?: string;
  baseUrl?: string;
}

interface Output {
  id: number;
  number: number;
  url: string;
  state: string;
}

interface IssueResponse {
  id?: number;
  number?: number;
  html_url?: string;
  state?: string;
  message?: string;
  errors?: { resource?: string; field?: string; code?: string; message?: string }[];
}

function list(s: string | undefined): string[] {
  return (s ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "");
}

export default async function githubIssue(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const token = ctx.env["GITHUB_TOKEN"];
  if (typeof token !== "string" || token === "") {
    throw new Error("GitHub: the secret GITHUB_TOKEN is not set");
  }
  const body: Record<string, unknown> = { title: config.title };
  if (config.body) body.body = config.body;
  const labels = list(config.labels);
  const assignees = list(config.assignees);
  if (labels.length > 0) body.labels = labels;
  if (assignees.length > 0) body.assignees = assignees;

  const base = (config.baseUrl || "https://api.github.com").replace(/\/+$/, "");
  const res = await fetch(`${base}/repos/${encodeURIComponent(config.owner)}/${encodeURIComponent(config.repo)}/issues`, {
    method: "POST",
    headers: {
      ...ctx.trace,
      Accept: "application/vnd.github+json",
      Authorization: `Bearer ${token}`,
      "X-GitHub-Api-Version": "2022-11-28",
      "Content-Type": "application/json",
      "User-Agent": "edgeflow",
    },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  let data: IssueResponse = {};
  try {
    data = JSON.parse(raw) as IssueResponse;
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    let detail = data.message ?? raw.slice(0, 500);
    if (data.errors && data.errors.length > 0) {
      detail += ` (${data.errors.map((e) => e.message ?? `${e.field ?? ""} ${e.code ?? ""}`.trim()).join("; ")})`;
    }
    throw new Error(`GitHub create issue in ${config.owner}/${config.repo} failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${detail}`);
  }
  return { id: data.id ?? 0, number: data.number ?? 0, url: data.html_url ?? "", state: data.state ?? "" };
}
