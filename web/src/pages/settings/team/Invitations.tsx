import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../../api/client";
import { fieldErrors, type FieldErrors } from "../../../api/forms";
import { useCursorList } from "../../../api/queries/cursor";
import { organizationQueries } from "../../../api/queries/organizations";
import { CopyField, DataTable, Field } from "../../../app/fields";
import { Dialog, ErrorMessage, formatTime, Loading } from "../../../app/ui";
import type { Invitation, Role } from "../../../api/models";

const roleHints: Record<Role, string> = {
  owner: "everything, and deleting the organization",
  admin: "members, invitations, connections and keys of everyone",
  member: "workflows, variables and deploys",
  viewer: "reading only",
};

// Invitations lists the organization's invitations with their status; pending ones can be revoked.
export function Invitations({ orgId }: { orgId: string }) {
  const qc = useQueryClient();
  const list = useCursorList(organizationQueries.invitations(orgId));
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const revoke = useMutation({
    mutationFn: (i: Invitation) =>
      ok(
        api.DELETE("/api/organizations/{organizationId}/invitations/{invitationId}", {
          params: { path: { organizationId: orgId, invitationId: i.id } },
        }),
      ),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: organizationQueries.invitations(orgId).queryKey });
      setRevoking(null);
    },
  });
  return (
    <>
      <h2>Invitations</h2>
      {list.isPending && <Loading what="invitations" />}
      <ErrorMessage error={list.error} title="The invitations could not be loaded" />
      {list.isSuccess && list.items.length === 0 && <p className="muted">No invitations yet.</p>}
      {list.items.length > 0 && (
        <DataTable columns={["Email", "Role", "Status", "Sent", "Expires"]} actions>
          {list.items.map((i) => (
            <tr key={i.id}>
              <td>{i.email}</td>
              <td>{i.role}</td>
              <td>
                <span className="badge">{i.status}</span>
              </td>
              <td className="small">{formatTime(i.createdAt)}</td>
              <td className="small">{formatTime(i.expiresAt)}</td>
              <td className="row-actions">
                {i.status === "pending" && (
                  <button type="button" className="danger" onClick={() => setRevoking(i)} aria-label={`Revoke the invitation of ${i.email}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          Load more invitations
        </button>
      )}
      {revoking && (
        <Dialog
          title={`Revoke the invitation of ${revoking.email}?`}
          onClose={() => {
            revoke.reset();
            setRevoking(null);
          }}
        >
          <p>Its link stops working at once. You can invite the address again later.</p>
          <ErrorMessage error={revoke.error} title="Not revoked" />
          <div className="actions">
            <button type="button" onClick={() => setRevoking(null)}>
              Cancel
            </button>
            <button type="button" className="danger primary" onClick={() => revoke.mutate(revoking)} disabled={revoke.isPending}>
              Revoke invitation
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}

// InviteDialog creates an invitation and shows its link once (like an API key, it is kept only in the dialog).
export function InviteDialog({ orgId, onClose }: { orgId: string; onClose: () => void }) {
  const qc = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [link, setLink] = useState("");
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const err: FieldErrors = {};
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) err.email = "Enter an email address such as ada@example.com.";
    setErrors(err);
    setFailure(null);
    if (Object.keys(err).length > 0) return;
    setPending(true);
    try {
      const inv = await ok(
        api.POST("/api/organizations/{organizationId}/invitations", {
          params: { path: { organizationId: orgId } },
          body: { email: email.trim(), role },
        }),
      );
      setLink(inv.acceptUrl);
      void qc.invalidateQueries({ queryKey: organizationQueries.invitations(orgId).queryKey });
    } catch (er) {
      setErrors(fieldErrors(er, ["email", "role"]));
      setFailure(er);
    } finally {
      setPending(false);
    }
  };
  if (link)
    return (
      <Dialog title={`Invitation for ${email.trim()}`} onClose={onClose}>
        <p>
          Send this link to {email.trim()}. It is shown only this once, works for that address only and expires in 7
          days.
        </p>
        <CopyField id="invite-link" label="Invitation link" value={link} what="link" />
        <div className="actions">
          <button type="button" onClick={onClose}>
            Done
          </button>
        </div>
      </Dialog>
    );
  return (
    <Dialog title="Invite member" onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field id="invite-email" label="Email" type="email" value={email} autoFocus onChange={setEmail} error={errors.email} />
        <fieldset className="field choice">
          <legend>Role</legend>
          {(["admin", "member", "viewer"] as const).map((r) => (
            <label key={r} className="radio">
              <input type="radio" name="invite-role" checked={role === r} onChange={() => setRole(r)} /> {r}{" "}
              <span className="muted small">— {roleHints[r]}</span>
            </label>
          ))}
        </fieldset>
        {(errors[""] || errors.role) && <ErrorMessage error={failure} title="Not invited" />}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={pending}>
            Create invitation
          </button>
        </div>
      </form>
    </Dialog>
  );
}
