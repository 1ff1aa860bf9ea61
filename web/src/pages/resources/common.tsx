// Pieces shared by the resources browser's screens: the connection a screen browses, the breadcrumb, a prefix
// search form and "Load more".
import { useMemo, useState, type FormEvent, type ReactNode } from "react";
import { Link } from "../../app/Link";
import { connectionQueries } from "../../api/queries/connections";
import { useCursorList } from "../../api/queries/cursor";
import { byName } from "../settings/list";
import type { Connection } from "../../api/models";

// useConnections reads the organization's connections (every page: an organization has few) for their names.
export function useConnections() {
  const list = useCursorList(connectionQueries.list());
  const shown = useMemo(() => byName(list.items), [list.items]);
  return { ...list, shown };
}

export function resourcesPath(connectionId: string): string {
  return `/resources?connection=${encodeURIComponent(connectionId)}`;
}

// Crumbs is the trail from Resources to the screen, the last part being the page's own heading.
export function Crumbs({ connection, connectionId, children }: { connection?: Connection; connectionId: string; children?: ReactNode }) {
  return (
    <nav aria-label="Breadcrumb" className="crumbs">
      <ol>
        <li>
          <Link href="/resources">Resources</Link>
        </li>
        <li>
          <Link href={resourcesPath(connectionId)}>{connection?.name ?? connectionId}</Link>
        </li>
        {children}
      </ol>
    </nav>
  );
}

// PrefixSearch is a search by prefix: the list is read again from the API with ?prefix= when it is submitted.
export function PrefixSearch({
  id,
  label,
  value,
  onSearch,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  onSearch: (prefix: string) => void;
  placeholder?: string;
}) {
  const [text, setText] = useState(value);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(text);
  };
  return (
    <form className="prefix-search" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={text} placeholder={placeholder} spellCheck={false} onChange={(e) => setText(e.target.value)} />
      <button type="submit">Search</button>
      {value !== "" && (
        <button
          type="button"
          onClick={() => {
            setText("");
            onSearch("");
          }}
        >
          Clear
        </button>
      )}
    </form>
  );
}

export function LoadMore({
  list,
  what,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  what: string;
}) {
  if (!list.hasNextPage) return null;
  return (
    <button type="button" className="load-more" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
      {list.isFetchingNextPage ? "Loading…" : `Load more ${what}`}
    </button>
  );
}
