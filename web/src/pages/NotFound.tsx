import { useMutation, useQuery } from "@tanstack/react-query";
import { api, ApiError, ok } from "../api/client";
import { projectQueries } from "../api/queries/projects";
import { workflowQueries } from "../api/queries/workflows";
import type { SignedIn } from "../api/models";
import { Link } from "../app/Link";
import { useSession, useSetSession } from "../app/session";
import { ErrorMessage, Loading } from "../app/ui";

// isNotFound reports whether an error is the API's 404.
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

// WorkflowNotFound explains a workflow URL that the active project does not hold. A link shared from another project
// of the organization is common, so it looks for the workflow in the organization's other projects and offers to
// switch to the one that holds it.
export function WorkflowNotFound({ workflowId, error }: { workflowId: string; error: unknown }) {
  const session = useSession().data as SignedIn;
  const setSession = useSetSession();
  const projects = useQuery(projectQueries.list(session.activeOrganizationId));
  const others = (projects.data?.data ?? []).filter((p) => p.id !== session.activeProjectId);
  const found = useQuery({ ...workflowQueries.locate(workflowId, others), enabled: projects.isSuccess });
  const switchTo = useMutation({
    mutationFn: (projectId: string) =>
      ok(api.PUT("/api/session/active", { body: { organizationId: session.activeOrganizationId, projectId } })),
    onSuccess: (s) => setSession(s),
  });
  const active = projects.data?.data.find((p) => p.id === session.activeProjectId);
  return (
    <main className="page narrow">
      <h1>Workflow not found</h1>
      <p>
        The project {active ? <strong>{active.name}</strong> : "you are in"} has no workflow <code>{workflowId}</code>.
      </p>
      {(projects.isPending || found.isPending) && <Loading what="the other projects" />}
      {found.data && (
        <div className="empty">
          <p>
            It is <strong>{found.data.workflow.name}</strong> in the project <strong>{found.data.project.name}</strong>.
          </p>
          <button type="button" className="primary" onClick={() => switchTo.mutate(found.data!.project.id)} disabled={switchTo.isPending}>
            Switch to {found.data.project.name}
          </button>
          <ErrorMessage error={switchTo.error} />
        </div>
      )}
      {found.data === null && <ErrorMessage error={error} title="Not in any project of this organization" />}
      <ErrorMessage error={found.error} />
      <p>
        <Link href="/">Back to the workflows</Link>
      </p>
    </main>
  );
}
