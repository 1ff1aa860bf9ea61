import { useEffect, useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { useLocation, useSearch } from "wouter";
import { fieldErrors } from "../../api/forms";
import { useCursorList } from "../../api/queries/cursor";
import { marketplaceQueries } from "../../api/queries/marketplace";
import { DataTable, Field, FieldError } from "../../app/fields";
import { Link } from "../../app/Link";
import { ErrorMessage, Loading } from "../../app/ui";
import { filtersFromSearch, queryProblem, searchFromFilters, type CatalogFilters } from "./model";
import "./marketplace.css";

// MarketplacePage is the catalog of marketplace nodes: searched by words, filtered by category, each with its latest
// and installed versions. The filters live in the URL (/marketplace?q=…&category=…), so a search survives a reload
// and can be shared.
export default function MarketplacePage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const applied = filtersFromSearch(search);
  const [draft, setDraft] = useState<CatalogFilters>(applied);
  const [problem, setProblem] = useState<string | undefined>();
  useEffect(() => {
    setDraft(filtersFromSearch(search));
    setProblem(undefined);
  }, [search]);

  const categories = useQuery(marketplaceQueries.categories());
  const query = searchFromFilters(applied);
  const list = useCursorList(marketplaceQueries.catalog(query));
  const errors = list.error ? fieldErrors(list.error, ["?q", "?category"]) : {};
  const qError = problem ?? errors["?q"];
  const categoryError = errors["?category"];
  const otherError = list.error && !errors["?q"] && !errors["?category"] ? list.error : null;

  const apply = (f: CatalogFilters) => {
    const p = queryProblem(f.q);
    setProblem(p);
    if (p) return;
    const s = searchFromFilters(f);
    navigate(s ? `/marketplace?${s}` : "/marketplace");
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(draft);
  };
  const total = categories.data?.categories.reduce((n, c) => n + c.nodes, 0);
  const filtered = query !== "";

  return (
    <main className="page marketplace">
      <div className="page-head">
        <div>
          <h1>Marketplace</h1>
          <p className="muted">
            Integrations your workflows can use as nodes once the organization has installed them. Owners and admins
            install, update and uninstall them.
          </p>
        </div>
      </div>
      <form className="market-filters" role="search" aria-label="Search the catalog" onSubmit={submit} noValidate>
        <Field
          id="market-q"
          label="Search"
          type="search"
          value={draft.q}
          placeholder="Words in the name or description"
          error={qError}
          onChange={(q) => setDraft((d) => ({ ...d, q }))}
        />
        <div className="field">
          <label htmlFor="market-category">Category</label>
          <select
            id="market-category"
            value={draft.category}
            aria-invalid={categoryError ? true : undefined}
            aria-describedby={categoryError ? "market-category-error" : undefined}
            onChange={(e) => {
              const f = { ...draft, category: e.target.value };
              setDraft(f);
              apply(f);
            }}
          >
            <option value="">All categories{total !== undefined ? ` (${total})` : ""}</option>
            {categories.data?.categories.map((c) => (
              <option key={c.name} value={c.name} disabled={c.nodes === 0 && c.name !== draft.category}>
                {c.name} ({c.nodes})
              </option>
            ))}
            {/* a category from the URL that the server does not know still shows, with the API's refusal */}
            {draft.category &&
              categories.data &&
              !categories.data.categories.some((c) => c.name === draft.category) && (
                <option value={draft.category}>{draft.category}</option>
              )}
          </select>
          {categoryError && <FieldError id="market-category-error">{categoryError}</FieldError>}
        </div>
        <div className="field buttons">
          <button type="submit" className="primary">
            Search
          </button>
          {filtered && (
            <button type="button" onClick={() => navigate("/marketplace")}>
              Clear filters
            </button>
          )}
        </div>
      </form>
      <ErrorMessage error={categories.error} title="The categories could not be loaded" />
      <ErrorMessage error={otherError} title="The catalog could not be loaded" />
      {list.isPending && <Loading what="the catalog" />}
      {list.isSuccess && list.items.length === 0 && (
        <div className="empty">
          {filtered ? (
            <p>No node matches {describe(applied)}.</p>
          ) : (
            <p>The catalog is empty: this server's registry serves no node.</p>
          )}
        </div>
      )}
      {list.items.length > 0 && (
        <>
          <p className="muted small" role="status">
            {list.items.length} {list.items.length === 1 ? "node" : "nodes"}
            {list.hasNextPage ? " shown, more to load" : ""}
            {filtered ? ` matching ${describe(applied)}` : ""}.
          </p>
          <DataTable
            className="market-table"
            label="Marketplace nodes"
            columns={["Node", "Category", "Description", "Latest", "Installed"]}
          >
            {list.items.map((n) => (
              <tr key={n.id}>
                <td>
                  <Link href={`/marketplace/${encodeURIComponent(n.id)}`} className="strong">
                    {n.name}
                  </Link>
                  <div>
                    <code className="small muted">{n.id}</code>
                  </div>
                </td>
                <td>{n.category}</td>
                <td>{n.description}</td>
                <td>
                  <code>{n.latest}</code>
                </td>
                <td>
                  {n.installedVersion ? (
                    <>
                      <code>{n.installedVersion}</code>
                      {n.updateAvailable && <span className="badge update">update available</span>}
                    </>
                  ) : (
                    <span className="muted">not installed</span>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          Load more
        </button>
      )}
    </main>
  );
}

function describe(f: CatalogFilters): string {
  const parts: string[] = [];
  if (f.q.trim()) parts.push(`“${f.q.trim()}”`);
  if (f.category) parts.push(`in ${f.category}`);
  return parts.join(" ");
}
