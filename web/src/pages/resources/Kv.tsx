// /resources/kv/:connectionId/:namespaceId: the namespace's keys (prefix search, pages of the API's cursors) and the
// chosen key's value (?key=), shown as JSON, text or binary with its metadata and expiry.
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { useLocation, useSearch } from "wouter";
import { useCursorList } from "../../api/queries/cursor";
import { resourceQueries } from "../../api/queries/resources";
import { Link } from "../../app/Link";
import { ErrorMessage, Json, Loading } from "../../app/ui";
import { Crumbs, LoadMore, PrefixSearch, useConnections } from "./common";
import { classifyValue, formatBytes, formatExpiry, hexDump, jsonTokens } from "./format";
import type { KVKey } from "../../api/models";
import "./resources.css";

export default function KvPage({ connectionId, namespaceId }: { connectionId: string; namespaceId: string }) {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const prefix = params.get("prefix") ?? "";
  const key = params.get("key");
  const conns = useConnections();
  const connection = conns.shown.find((c) => c.id === connectionId);
  const base = `/resources/kv/${encodeURIComponent(connectionId)}/${encodeURIComponent(namespaceId)}`;
  const go = (p: { prefix?: string; key?: string | null }) => {
    const np = p.prefix ?? prefix;
    const nk = p.key === undefined ? key : p.key;
    const s = new URLSearchParams();
    if (np) s.set("prefix", np);
    if (nk) s.set("key", nk);
    const q = s.toString();
    navigate(q ? `${base}?${q}` : base);
  };
  // the namespace's title: the namespaces list holds it (the first pages; an id is shown otherwise)
  const title = useQuery(resourceQueries.kvNamespaceTitle(connectionId, namespaceId));
  const keys = useCursorList(resourceQueries.kvKeys(connectionId, namespaceId, prefix));
  const name = title.data ?? namespaceId;
  return (
    <main className="page resources">
      <Crumbs connection={connection} connectionId={connectionId}>
        <li aria-current="page">KV namespace {name}</li>
      </Crumbs>
      <div className="page-head">
        <div>
          <h1>{name}</h1>
          <p className="muted small">
            KV namespace <code>{namespaceId}</code>
          </p>
        </div>
      </div>
      <div className="kv-layout">
        <section aria-labelledby="keys-heading" className="kv-keys">
          <h2 id="keys-heading">Keys</h2>
          <PrefixSearch key={prefix} id="key-prefix" label="Search keys by prefix" value={prefix} onSearch={(p) => go({ prefix: p })} />
          {keys.isPending && <Loading what="keys" />}
          <ErrorMessage error={keys.error} title="The keys could not be loaded" />
          {keys.isSuccess && keys.items.length === 0 && <p className="muted">{prefix ? `No key starts with “${prefix}”.` : "The namespace has no key."}</p>}
          {keys.items.length > 0 && (
            <ul className="plain key-list" aria-label="Keys">
              {keys.items.map((k) => (
                <li key={k.name}>
                  <Link
                    href={`${base}?${new URLSearchParams({ ...(prefix ? { prefix } : {}), key: k.name })}`}
                    className={k.name === key ? "key active" : "key"}
                    aria-current={k.name === key ? "true" : undefined}
                  >
                    <code>{k.name}</code>
                    {k.expiration ? <span className="muted small"> · expires</span> : null}
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <LoadMore list={keys} what="keys" />
        </section>
        <section aria-labelledby="value-heading" className="kv-value">
          {key === null ? (
            <>
              <h2 id="value-heading">Value</h2>
              <p className="muted">Choose a key to see its value.</p>
            </>
          ) : (
            <ValueViewer key={key} connectionId={connectionId} namespaceId={namespaceId} name={key} listed={keys.items.find((k) => k.name === key)} />
          )}
        </section>
      </div>
    </main>
  );
}

function ValueViewer({
  connectionId,
  namespaceId,
  name,
  listed,
}: {
  connectionId: string;
  namespaceId: string;
  name: string;
  listed?: KVKey;
}) {
  const value = useQuery(resourceQueries.kvValue(connectionId, namespaceId, name));
  // A key opened from a link may not be among the keys loaded: its metadata and expiry come from the listing of
  // its own name as prefix, where it is the first key.
  const own = useQuery({ ...resourceQueries.kvKey(connectionId, namespaceId, name), enabled: !listed });
  const info = listed ?? own.data;
  const kind = useMemo(() => (value.data ? classifyValue(value.data.value, value.data.encoding) : undefined), [value.data]);
  return (
    <>
      <h2 id="value-heading">
        Value of <code>{name}</code>
      </h2>
      {value.isPending && <Loading what="the value" />}
      <ErrorMessage error={value.error} title="The value could not be read" />
      {value.data && kind && (
        <>
          <dl className="facts">
            <dt>Type</dt>
            <dd>{kind.kind === "json" ? "JSON" : kind.kind === "text" ? "text" : "binary"}</dd>
            <dt>Size</dt>
            <dd>{formatBytes(value.data.size)}</dd>
            <dt>Expires</dt>
            <dd>{info ? formatExpiry(info.expiration) : "—"}</dd>
          </dl>
          {kind.kind === "json" && (
            <pre className="json-view" aria-label={`JSON value of ${name}`} tabIndex={0}>
              {jsonTokens(kind.pretty).map((t, i) =>
                t.type === "punct" ? (
                  t.text
                ) : (
                  <span key={i} className={`tok-${t.type}`}>
                    {t.text}
                  </span>
                ),
              )}
            </pre>
          )}
          {kind.kind === "text" && (
            <pre className="text-view" aria-label={`Text value of ${name}`} tabIndex={0}>
              {kind.text}
            </pre>
          )}
          {kind.kind === "binary" && (
            <>
              <p>
                Binary value, {formatBytes(kind.bytes.length)}. The first {Math.min(kind.bytes.length, 512)} bytes:
              </p>
              <pre className="text-view hex" aria-label={`Hex preview of ${name}`} tabIndex={0}>
                {hexDump(kind.bytes)}
              </pre>
              <button type="button" onClick={() => download(name, kind.bytes)}>
                Download value
              </button>
            </>
          )}
          <h3>Metadata</h3>
          {info?.metadata !== undefined ? <Json value={info.metadata} label={`Metadata of ${name}`} /> : <p className="muted">none</p>}
        </>
      )}
    </>
  );
}

function download(key: string, bytes: Uint8Array) {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: "application/octet-stream" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = key.slice(key.lastIndexOf("/") + 1) || "value";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
