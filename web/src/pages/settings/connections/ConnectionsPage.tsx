import { useMemo, useState } from "react";
import { api, ok } from "../../../api/client";
import { connectionQueries } from "../../../api/queries/connections";
import { useCursorList } from "../../../api/queries/cursor";
import { DataTable, RenameDialog } from "../../../app/fields";
import { ErrorMessage, formatTime, Loading } from "../../../app/ui";
import { byName } from "../list";
import type { Connection } from "../../../api/models";
import "../settings.css";

import { CreateDialog } from "./CreateDialog";
import { DeleteDialog, RotateDialog } from "./dialogs";
import { useInvalidate } from "./token";
// ConnectionsPage lists the provider accounts deployments go to: the organization's and the active project's.
export default function ConnectionsPage() {
  const invalidate = useInvalidate();
  const list = useCursorList(connectionQueries.list());
  const shown = useMemo(() => byName(list.items), [list.items]);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Connection | null>(null);
  const [rotating, setRotating] = useState<Connection | null>(null);
  const [deleting, setDeleting] = useState<Connection | null>(null);
  return (
    <main className="page settings">
      <div className="page-head">
        <div>
          <h1>Connections</h1>
          <p className="muted">The Cloudflare accounts and the local edge that workflows deploy to.</p>
        </div>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New connection
        </button>
      </div>
      {list.isPending && <Loading what="connections" />}
      <ErrorMessage error={list.error} title="The connections could not be loaded" />
      {list.isSuccess && shown.length === 0 && (
        <div className="empty">
          <p>There is no connection yet.</p>
          <p className="muted">
            Choose <strong>New connection</strong> to add a Cloudflare account or the local edge.
          </p>
        </div>
      )}
      {shown.length > 0 && (
        <DataTable columns={["Name", "Provider", "Account", "Shared with", "Updated"]} actions>
          {shown.map((c) => (
            <tr key={c.id}>
              <td className="strong">{c.name}</td>
              <td>{c.provider === "local" ? "local edge" : "Cloudflare"}</td>
              <td>
                <code className="small">{c.accountId}</code>
              </td>
              <td>{c.scope === "organization" ? "the organization" : "this project"}</td>
              <td className="small">{formatTime(c.updatedAt)}</td>
              <td className="row-actions">
                <button type="button" onClick={() => setRenaming(c)} aria-label={`Rename ${c.name}`}>
                  Rename
                </button>
                {c.provider === "cloudflare" && (
                  <button type="button" onClick={() => setRotating(c)} aria-label={`Rotate credentials of ${c.name}`}>
                    Rotate credentials
                  </button>
                )}
                <button type="button" className="danger" onClick={() => setDeleting(c)} aria-label={`Delete ${c.name}`}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          Load more
        </button>
      )}
      {creating && <CreateDialog onClose={() => setCreating(false)} />}
      {renaming && (
        <RenameDialog
          id="conn-rename"
          current={renaming.name}
          save={async (name) => {
            await ok(api.PATCH("/api/connections/{id}", { params: { path: { id: renaming.id } }, body: { name } }));
            invalidate();
          }}
          onClose={() => setRenaming(null)}
        />
      )}
      {rotating && <RotateDialog c={rotating} onClose={() => setRotating(null)} />}
      {deleting && <DeleteDialog c={deleting} onClose={() => setDeleting(null)} />}
    </main>
  );
}
