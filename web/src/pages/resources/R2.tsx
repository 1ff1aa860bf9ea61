// /resources/r2/:connectionId/:bucket: the bucket's objects by folder (?prefix=, listed with the delimiter "/"),
// with size, content type and last change, paged with the API's cursors, each downloadable.
import { useMemo } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useLocation, useSearch } from "wouter";
import { resourceQueries } from "../../api/queries/resources";
import { DataTable } from "../../app/fields";
import { Link } from "../../app/Link";
import { ErrorMessage, formatTime, Loading } from "../../app/ui";
import { Crumbs, LoadMore, PrefixSearch, useConnections } from "./common";
import { formatBytes } from "./format";
import "./resources.css";

export default function R2Page({ connectionId, bucket }: { connectionId: string; bucket: string }) {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const prefix = params.get("prefix") ?? "";
  const folder = prefix.slice(0, prefix.lastIndexOf("/") + 1);
  const rest = prefix.slice(folder.length);
  const conns = useConnections();
  const connection = conns.shown.find((c) => c.id === connectionId);
  const base = `/resources/r2/${encodeURIComponent(connectionId)}/${encodeURIComponent(bucket)}`;
  const at = (p: string) => (p ? `${base}?${new URLSearchParams({ prefix: p })}` : base);
  const cq = `connectionId=${encodeURIComponent(connectionId)}`;
  const list = useInfiniteQuery(resourceQueries.r2Objects(connectionId, bucket, prefix));
  const { objects, folders } = useMemo(() => {
    const pages = list.data?.pages ?? [];
    return {
      objects: pages.flatMap((p) => p.data),
      folders: [...new Set(pages.flatMap((p) => p.delimitedPrefixes))],
    };
  }, [list.data]);
  const segments = folder.split("/").slice(0, -1);
  return (
    <main className="page resources">
      <Crumbs connection={connection} connectionId={connectionId}>
        <li aria-current="page">R2 bucket {bucket}</li>
      </Crumbs>
      <div className="page-head">
        <div>
          <h1>{bucket}</h1>
          <p className="muted small">R2 bucket</p>
        </div>
      </div>
      <nav aria-label="Folder" className="folder-path">
        <span className="muted">Folder: </span>
        <Link href={at("")}>{bucket}</Link>
        {segments.map((s, i) => {
          const p = segments.slice(0, i + 1).join("/") + "/";
          return (
            <span key={p}>
              {" / "}
              {i === segments.length - 1 ? <span aria-current="location">{s}</span> : <Link href={at(p)}>{s}</Link>}
            </span>
          );
        })}
      </nav>
      <PrefixSearch
        key={prefix}
        id="object-prefix"
        label={folder ? `Search in ${folder} by name prefix` : "Search objects by key prefix"}
        value={rest}
        onSearch={(t) => navigate(at(folder + t))}
      />
      {list.isPending && <Loading what="objects" />}
      <ErrorMessage error={list.error} title="The objects could not be loaded" />
      {list.isSuccess && objects.length === 0 && folders.length === 0 && (
        <p className="muted">{prefix ? `No object key starts with “${prefix}”.` : "The bucket is empty."}</p>
      )}
      {(objects.length > 0 || folders.length > 0) && (
        <DataTable columns={["Name", "Size", "Content type", "Last modified"]} actions>
          {folders.map((f) => (
            <tr key={`f:${f}`}>
              <td>
                <Link href={at(f)} aria-label={`Open folder ${f.slice(folder.length)}`}>
                  <span aria-hidden="true">📁 </span>
                  {f.slice(folder.length)}
                </Link>
              </td>
              <td className="muted">folder</td>
              <td />
              <td />
              <td />
            </tr>
          ))}
          {objects.map((o) => {
            const name = o.key.startsWith(folder) ? o.key.slice(folder.length) : o.key;
            return (
              <tr key={`o:${o.key}`}>
                <td>
                  <code>{name}</code>
                </td>
                <td>{formatBytes(o.size)}</td>
                <td className="small">{o.contentType || <span className="muted">none</span>}</td>
                <td className="small">{formatTime(o.lastModified)}</td>
                <td className="row-actions">
                  <a
                    className="button"
                    href={`/api/resources/r2/buckets/${encodeURIComponent(bucket)}/objects/${encodeURIComponent(o.key)}?${cq}`}
                    download={name.slice(name.lastIndexOf("/") + 1) || "object"}
                    aria-label={`Download ${o.key}`}
                  >
                    Download
                  </a>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      <LoadMore list={list} what="objects" />
    </main>
  );
}
