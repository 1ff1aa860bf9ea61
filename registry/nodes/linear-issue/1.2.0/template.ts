// Linear Issue 1.2.0: POST {baseUrl}/graphql with the issueCreate mutation.
// https://linear.app/developers/graphql

interface Config {
  teamId: string;
  title: string;
  description?: string;
  priority?: number;
  assigneeId?: string;
  labelIds?: string;
  baseUrl?: string;
}

interface Output {
  id: string;
  identifier: string;
  title: string;
  url: string;
}

interface IssueCreateResponse {
  data?: {
    issueCreate?: {
      success?: boolean;
      issue?: { id?: string; identifier?: string; title?: string; url?: string } | null;
    } | null;
  } | null;
  errors?: { message?: string }[];
}

const mutation =
  "mutation IssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier title url } } }";

export default async function linearIssue(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const apiKey = ctx.env["LINEAR_API_KEY"];
  if (typeof apiKey !== "string" || apiKey === "") {
    throw new Error("Linear: the secret LINEAR_API_KEY is not set");
  }
  const input: Record<string, unknown> = { teamId: config.teamId, title: config.title };
  if (config.description) input.description = config.description;
  if (typeof config.priority === "number") input.priority = config.priority;
  if (config.assigneeId) input.assigneeId = config.assigneeId;
  const labelIds = (config.labelIds ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (labelIds.length > 0) input.labelIds = labelIds;

  const base = (config.baseUrl || "https://api.linear.app").replace(/\/+$/, "");
  const res = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { ...ctx.trace, Authorization: apiKey, "Content-Type": "application/json" },
    body: JSON.stringify({ query: mutation, variables: { input } }),
  });
  const raw = await res.text();
  let data: IssueCreateResponse = {};
  try {
    data = JSON.parse(raw) as IssueCreateResponse;
  } catch {
    // not JSON: reported below with the status
  }
  const graphqlErrors = (data.errors ?? []).map((e) => e.message ?? "").filter((m) => m !== "");
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok || graphqlErrors.length > 0) {
    const detail = graphqlErrors.length > 0 ? graphqlErrors.join("; ") : raw.slice(0, 500);
    throw new Error(`Linear issueCreate failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${detail}`);
  }
  const issue = data.data?.issueCreate?.issue;
  if (data.data?.issueCreate?.success !== true || !issue) {
    throw new Error("Linear issueCreate failed: the mutation did not succeed");
  }
  return { id: issue.id ?? "", identifier: issue.identifier ?? "", title: issue.title ?? "", url: issue.url ?? "" };
}
