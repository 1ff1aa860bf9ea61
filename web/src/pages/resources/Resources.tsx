// /resources: the organization's connections by name; choosing one (?connection=) lists its KV namespaces, D1
// databases and R2 buckets, each paged with the API's cursors and searchable by prefix.
import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import { DataTable } from "../../app/fields";
import { Link } from "../../app/Link";
import { ErrorMessage, formatTime, Loading } from "../../app/ui";
import { useCursorList } from "../../api/queries/cursor";
import { resourceQueries } from "../../api/queries/resources";
import { LoadMore, PrefixSearch, resourcesPath, useConnections } from "./common";
import "./resources.css";

export default function ResourcesPage() {
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const connectionId = search.get("connection") ?? "";
  const conns = useConnections();
  const chosen = conns.shown.find((c) => c.id === connectionId);
  return (
    <main className="page resources">
      <div className="page-head">
        <div>
          <h1>Resources</h1>
          <p className="muted">The KV namespaces, D1 databases and R2 buckets of a connection's account.</p>
        </div>
      </div>
      <div className="resources-layout">
        <section aria-labelledby="conn-heading" className="conn-list">
          <h2 id="conn-heading">Connections</h2>
          {conns.isPending && <Loading what="connections" />}
          <ErrorMessage error={conns.error} title="The connections could not be loaded" />
          {conns.isSuccess && conns.shown.length === 0 && (
            <div className="empty">
              <p>There is no connection yet.</p>
              <p className="muted">
                Add one on <Link href="/connections">Connections</Link>: the local edge takes one click.
              </p>
            </div>
          )}
          <ul className="plain">
            {conns.shown.map((c) => (
              <li key={c.id}>
                <Link
                  href={resourcesPath(c.id)}
                  className={c.id === connectionId ? "conn active" : "conn"}
                  aria-current={c.id === connectionId ? "page" : undefined}
                >
                  <span className="strong">{c.name}</span>
                  <span className="muted small">{c.provider === "local" ? "local edge" : "Cloudflare"}</span>
                </Link>
              </li>
            ))}
          </ul>
          <LoadMore list={conns} what="connections" />
        </section>
        <div className="conn-resources">
          {connectionId === "" && conns.shown.length > 0 && (
            <p className="muted">Choose a connection to browse its resources.</p>
          )}
          {connectionId !== "" && conns.isSuccess && !chosen && !conns.hasNextPage && (
            <div className="error" role="alert">
              <p>
                There is no connection <code>{connectionId}</code> in this organization.{" "}
                <button type="button" onClick={() => navigate("/resources")}>
                  Show all connections
                </button>
              </p>
            </div>
          )}
          {connectionId !== "" && (chosen || conns.hasNextPage) && (
            <>
              <h2 className="conn-title">{chosen?.name ?? connectionId}</h2>
              <KVList key={`kv-${connectionId}`} connectionId={connectionId} />
              <D1List key={`d1-${connectionId}`} connectionId={connectionId} />
              <R2List key={`r2-${connectionId}`} connectionId={connectionId} />
            </>
          )}
        </div>
      </div>
    </main>
  );
}

function KVList({ connectionId }: { connectionId: string }) {
  const [prefix, setPrefix] = useState("");
  const list = useCursorList(resourceQueries.kvNamespaces(connectionId, prefix));
  return (
    <section aria-labelledby="kv-heading" className="resource-section">
      <h3 id="kv-heading">KV namespaces</h3>
      <PrefixSearch id="kv-prefix" label="Search KV namespaces by title prefix" value={prefix} onSearch={setPrefix} />
      {list.isPending && <Loading what="KV namespaces" />}
      <ErrorMessage error={list.error} title="The KV namespaces could not be loaded" />
      {list.isSuccess && list.items.length === 0 && (
        <p className="muted">{prefix ? `No namespace title starts with “${prefix}”.` : "No KV namespace."}</p>
      )}
      {list.items.length > 0 && (
        <DataTable columns={["Title", "Id"]}>
          {list.items.map((n) => (
            <tr key={n.id}>
              <td>
                <Link href={`/resources/kv/${encodeURIComponent(connectionId)}/${encodeURIComponent(n.id)}`}>
                  {n.title}
                </Link>
              </td>
              <td>
                <code className="small">{n.id}</code>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <LoadMore list={list} what="KV namespaces" />
    </section>
  );
}

function D1List({ connectionId }: { connectionId: string }) {
  const [prefix, setPrefix] = useState("");
  const list = useCursorList(resourceQueries.d1Databases(connectionId, prefix));
  return (
    <section aria-labelledby="d1-heading" className="resource-section">
      <h3 id="d1-heading">D1 databases</h3>
      <PrefixSearch id="d1-prefix" label="Search D1 databases by name prefix" value={prefix} onSearch={setPrefix} />
      {list.isPending && <Loading what="D1 databases" />}
      <ErrorMessage error={list.error} title="The D1 databases could not be loaded" />
      {list.isSuccess && list.items.length === 0 && (
        <p className="muted">{prefix ? `No database name starts with “${prefix}”.` : "No D1 database."}</p>
      )}
      {list.items.length > 0 && (
        <DataTable columns={["Name", "Id", "Created"]}>
          {list.items.map((d) => (
            <tr key={d.id}>
              <td>
                <Link href={`/resources/d1/${encodeURIComponent(connectionId)}/${encodeURIComponent(d.id)}`}>
                  {d.name}
                </Link>
              </td>
              <td>
                <code className="small">{d.id}</code>
              </td>
              <td className="small">{formatTime(d.createdAt)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <LoadMore list={list} what="D1 databases" />
    </section>
  );
}

function R2List({ connectionId }: { connectionId: string }) {
  const [prefix, setPrefix] = useState("");
  const list = useCursorList(resourceQueries.r2Buckets(connectionId, prefix));
  return (
    <section aria-labelledby="r2-heading" className="resource-section">
      <h3 id="r2-heading">R2 buckets</h3>
      <PrefixSearch id="r2-prefix" label="Search R2 buckets by name prefix" value={prefix} onSearch={setPrefix} />
      {list.isPending && <Loading what="R2 buckets" />}
      <ErrorMessage error={list.error} title="The R2 buckets could not be loaded" />
      {list.isSuccess && list.items.length === 0 && (
        <p className="muted">{prefix ? `No bucket name starts with “${prefix}”.` : "No R2 bucket."}</p>
      )}
      {list.items.length > 0 && (
        <DataTable columns={["Name", "Created"]}>
          {list.items.map((b) => (
            <tr key={b.name}>
              <td>
                <Link href={`/resources/r2/${encodeURIComponent(connectionId)}/${encodeURIComponent(b.name)}`}>
                  {b.name}
                </Link>
              </td>
              <td className="small">{formatTime(b.createdAt)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <LoadMore list={list} what="R2 buckets" />
    </section>
  );
}
