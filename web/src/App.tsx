import { lazy, Suspense, useEffect } from "react";
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import { afterSignIn, isPublicPath, signInLocation } from "./app/guard";
import { useSession } from "./app/session";
import { ErrorMessage, Loading } from "./app/ui";
import { Shell } from "./pages/Shell";
import { SignInPage, SignUpPage } from "./pages/Auth";
import { InvitePage, SetupPage } from "./pages/Join";
import { WorkflowsPage } from "./pages/workflows/WorkflowsPage";

// The editor (with the canvas and CodeMirror), the versions and the run pages load on demand, so the sign-in
// page's JavaScript stays small.
const EditorPage = lazy(() => import("./pages/editor/EditorPage"));
const VersionsPage = lazy(() => import("./pages/versions/VersionsPage"));
const ReleasesPage = lazy(() => import("./pages/releases/ReleasesPage"));
const RunPage = lazy(() => import("./pages/run/RunPage"));
const WebhooksPage = lazy(() => import("./pages/webhooks/WebhooksPage"));
const RunsPage = lazy(() => import("./pages/Runs"));
const EventsPage = lazy(() => import("./pages/events/EventsPage"));
const ConnectionsPage = lazy(() => import("./pages/settings/connections/ConnectionsPage"));
const EnvVarsPage = lazy(() => import("./pages/settings/EnvVars"));
const ApiKeysPage = lazy(() => import("./pages/settings/ApiKeys"));
const ConnectAssistantPage = lazy(() => import("./pages/settings/ConnectAssistant"));
const TeamPage = lazy(() => import("./pages/settings/team/TeamPage"));
const AuditPage = lazy(() => import("./pages/settings/Audit"));
const ResourcesPage = lazy(() => import("./pages/resources/Resources"));
const KvPage = lazy(() => import("./pages/resources/Kv"));
const D1Page = lazy(() => import("./pages/resources/D1"));
const R2Page = lazy(() => import("./pages/resources/R2"));
const MarketplacePage = lazy(() => import("./pages/marketplace/Marketplace"));
const MarketplaceNodePage = lazy(() => import("./pages/marketplace/MarketplaceNode"));

// App maps every screen to its own URL (see docs/studio.md). Signed-out visits of a private URL go to /sign-in
// and come back after signing in; signed-in visits of /sign-in, /sign-up or /setup go on to Studio.
export function App() {
  const [location] = useLocation();
  const search = useSearch();
  const session = useSession();
  useEffect(() => {
    document.title = titleFor(location);
  }, [location]);

  if (session.isPending) return <Loading what="Studio" />;
  if (session.isError)
    return (
      <main className="page narrow">
        <h1>edgeflow Studio</h1>
        <ErrorMessage error={session.error} title="Studio could not reach the server" />
        <button type="button" onClick={() => void session.refetch()}>
          Try again
        </button>
      </main>
    );
  const signedIn = session.data !== null;
  // An invitation's link works signed out (sign up with it) and signed in (accept it).
  if (location === "/invite") return <InvitePage session={session.data ?? null} />;
  if (isPublicPath(location)) {
    if (signedIn) return <Redirect to={afterSignIn(search)} replace />;
    if (location === "/setup") return <SetupPage />;
    return location === "/sign-up" ? <SignUpPage /> : <SignInPage />;
  }
  if (!signedIn) return <Redirect to={signInLocation(location + (search ? `?${search}` : ""))} replace />;
  return (
    <Shell session={session.data!}>
      <Suspense fallback={<Loading what="the page" />}>
        <Switch>
          <Route path="/" component={WorkflowsPage} />
          <Route path="/webhooks" component={WebhooksPage} />
          <Route path="/runs" component={RunsPage} />
          <Route path="/events" component={EventsPage} />
          <Route path="/workflows/:id">{(p) => <EditorPage workflowId={p.id} />}</Route>
          <Route path="/workflows/:id/versions">{(p) => <VersionsPage workflowId={p.id} />}</Route>
          <Route path="/workflows/:id/releases">{(p) => <ReleasesPage workflowId={p.id} />}</Route>
          <Route path="/workflows/:id/runs/:runId">
            {(p) => <RunPage key={p.runId} workflowId={p.id} runId={p.runId} />}
          </Route>
          <Route path="/connections" component={ConnectionsPage} />
          <Route path="/env-vars" component={EnvVarsPage} />
          <Route path="/api-keys" component={ApiKeysPage} />
          <Route path="/connect-assistant" component={ConnectAssistantPage} />
          <Route path="/team" component={TeamPage} />
          <Route path="/audit" component={AuditPage} />
          <Route path="/resources" component={ResourcesPage} />
          <Route path="/resources/kv/:connectionId/:namespaceId">
            {(p) => (
              <KvPage
                key={`${p.connectionId}/${p.namespaceId}`}
                connectionId={p.connectionId}
                namespaceId={p.namespaceId}
              />
            )}
          </Route>
          <Route path="/resources/d1/:connectionId/:databaseId">
            {(p) => (
              <D1Page
                key={`${p.connectionId}/${p.databaseId}`}
                connectionId={p.connectionId}
                databaseId={p.databaseId}
              />
            )}
          </Route>
          <Route path="/resources/r2/:connectionId/:bucket">
            {(p) => <R2Page key={`${p.connectionId}/${p.bucket}`} connectionId={p.connectionId} bucket={p.bucket} />}
          </Route>
          <Route path="/marketplace" component={MarketplacePage} />
          <Route path="/marketplace/:nodeId">
            {(p) => <MarketplaceNodePage key={p.nodeId} nodeId={decodeURIComponent(p.nodeId)} />}
          </Route>
          <Route>
            <main className="page">
              <h1>Page not found</h1>
              <p>
                Nothing lives at <code>{location}</code>. <a href="/">Go to the workflows</a>.
              </p>
            </main>
          </Route>
        </Switch>
      </Suspense>
    </Shell>
  );
}

function titleFor(path: string): string {
  if (path === "/sign-in") return "Sign in · edgeflow Studio";
  if (path === "/sign-up") return "Sign up · edgeflow Studio";
  if (path === "/setup") return "Create the owner account · edgeflow Studio";
  if (path === "/invite") return "Join an organization · edgeflow Studio";
  if (path === "/") return "Workflows · edgeflow Studio";
  if (path === "/webhooks") return "Webhooks · edgeflow Studio";
  if (path === "/runs") return "Runs · edgeflow Studio";
  if (path === "/events") return "Events · edgeflow Studio";
  if (path === "/connections") return "Connections · edgeflow Studio";
  if (path === "/env-vars") return "Environment variables · edgeflow Studio";
  if (path === "/api-keys") return "API keys · edgeflow Studio";
  if (path === "/connect-assistant") return "Connect an assistant · edgeflow Studio";
  if (path === "/team") return "Team · edgeflow Studio";
  if (path === "/audit") return "Audit log · edgeflow Studio";
  if (path === "/resources") return "Resources · edgeflow Studio";
  if (path.startsWith("/resources/kv/")) return "KV namespace · edgeflow Studio";
  if (path.startsWith("/resources/d1/")) return "D1 database · edgeflow Studio";
  if (path.startsWith("/resources/r2/")) return "R2 bucket · edgeflow Studio";
  if (path === "/marketplace") return "Marketplace · edgeflow Studio";
  if (/^\/marketplace\/[^/]+$/.test(path)) return "Marketplace node · edgeflow Studio";
  if (/^\/workflows\/[^/]+\/versions$/.test(path)) return "Versions · edgeflow Studio";
  if (/^\/workflows\/[^/]+\/releases$/.test(path)) return "Releases · edgeflow Studio";
  if (/^\/workflows\/[^/]+\/runs\//.test(path)) return "Run · edgeflow Studio";
  if (/^\/workflows\/[^/]+$/.test(path)) return "Editor · edgeflow Studio";
  return "edgeflow Studio";
}
