import { useMemo, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { api } from "../../api/client";
import { fieldErrors, type FieldErrors } from "../../api/forms";
import { useCursorList } from "../../api/queries/cursor";
import { organizationKeys, organizationQueries } from "../../api/queries/organizations";
import { sessionKeys } from "../../api/queries/session";
import type { Session } from "../../api/types";
import { CopyField, DataTable, Field } from "../../app/fields";
import { useSession, useSetSession } from "../../app/session";
import { Dialog, ErrorMessage, formatTime, Loading } from "../../app/ui";
import type { Invitation, Member, Role } from "./types";
import "./settings.css";

const roleHints: Record<Role, string> = {
  owner: "everything, and deleting the organization",
  admin: "members, invitations, connections and keys of everyone",
  member: "workflows, variables and deploys",
  viewer: "reading only",
};

// TeamPage lists the active organization's members by email with their roles, its invitations, and changes roles,
// removes members, leaves and transfers ownership.
export default function TeamPage() {
  const session = useSession().data!;
  const orgId = session.activeOrganizationId;
  const org = session.organizations.find((o) => o.id === orgId);
  const myRole = (org?.role ?? "viewer") as Role;
  const isAdmin = myRole === "owner" || myRole === "admin";
  const members = useCursorList(organizationQueries.members(orgId));
  const shown = useMemo(() => [...members.items].sort((a, b) => a.email.localeCompare(b.email)), [members.items]);
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [transferring, setTransferring] = useState(false);
  return (
    <main className="page settings">
      <div className="page-head">
        <div>
          <h1>Team</h1>
          <p className="muted">
            The members of {org?.name ?? "the organization"} and their roles. You are {article(myRole)} {myRole}.
          </p>
        </div>
        <div className="row-actions">
          {isAdmin && (
            <button type="button" className="primary" onClick={() => setInviting(true)}>
              Invite member
            </button>
          )}
          {myRole === "owner" && (
            <button type="button" onClick={() => setTransferring(true)}>
              Transfer ownership
            </button>
          )}
        </div>
      </div>
      <h2>Members</h2>
      {members.isPending && <Loading what="members" />}
      <ErrorMessage error={members.error} title="The members could not be loaded" />
      {shown.length > 0 && (
        <DataTable columns={["Email", "Name", "Role", "Member since"]} actions>
          {shown.map((m) => (
            <MemberRow
              key={m.userId}
              m={m}
              orgId={orgId}
              me={m.userId === session.user.id}
              myRole={myRole}
              onRemove={() => setRemoving(m)}
            />
          ))}
        </DataTable>
      )}
      {members.hasNextPage && (
        <button type="button" onClick={() => void members.fetchNextPage()} disabled={members.isFetchingNextPage}>
          Load more members
        </button>
      )}
      {isAdmin && <Invitations orgId={orgId} />}
      {inviting && <InviteDialog orgId={orgId} onClose={() => setInviting(false)} />}
      {removing && (
        <RemoveDialog m={removing} orgId={orgId} me={removing.userId === session.user.id} onClose={() => setRemoving(null)} />
      )}
      {transferring && (
        <TransferDialog
          orgId={orgId}
          members={shown.filter((m) => m.userId !== session.user.id)}
          onClose={() => setTransferring(false)}
        />
      )}
    </main>
  );
}

function article(role: string): string {
  return /^[aeiou]/.test(role) ? "an" : "a";
}

// refreshSession reads the session again after a change of the user's own membership (roles shown in the top bar).
function useRefreshSession() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: sessionKeys.all });
}

function MemberRow({
  m,
  orgId,
  me,
  myRole,
  onRemove,
}: {
  m: Member;
  orgId: string;
  me: boolean;
  myRole: Role;
  onRemove: () => void;
}) {
  const qc = useQueryClient();
  const refresh = useRefreshSession();
  const change = useMutation({
    mutationFn: (role: Role) => api.patch<Member>(`/api/organizations/${orgId}/members/${m.userId}`, { role }),
    onSuccess: (updated) => {
      // show the new role at once, then read the list again
      qc.setQueryData(organizationQueries.members(orgId).queryKey, (old) =>
        old && {
          ...old,
          pages: old.pages.map((p) => ({ ...p, data: p.data.map((x) => (x.userId === updated.userId ? updated : x)) })),
        },
      );
      void qc.invalidateQueries({ queryKey: organizationKeys.members(orgId) });
      if (me) refresh();
    },
  });
  const mayChange = !me && (myRole === "owner" || myRole === "admin") && m.role !== "owner";
  const mayRemove = me || ((myRole === "owner" || myRole === "admin") && m.role !== "owner");
  const selectId = `role-${m.userId}`;
  return (
    <tr>
      <td className="strong">
        {m.email}
        {me && <span className="muted"> (you)</span>}
      </td>
      <td>{m.name}</td>
      <td>
        {mayChange ? (
          <>
            <label htmlFor={selectId} className="sr-only">
              Role of {m.email}
            </label>
            <select
              id={selectId}
              value={change.isPending ? change.variables : m.role}
              disabled={change.isPending}
              onChange={(e) => change.mutate(e.target.value as Role)}
            >
              {(["admin", "member", "viewer"] as const).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </>
        ) : (
          <span className="badge">{m.role}</span>
        )}
        <ErrorMessage error={change.error} title="The role was not changed" />
      </td>
      <td className="small">{formatTime(m.createdAt)}</td>
      <td className="row-actions">
        {mayRemove && (
          <button type="button" className="danger" onClick={onRemove} aria-label={me ? "Leave the organization" : `Remove ${m.email}`}>
            {me ? "Leave" : "Remove"}
          </button>
        )}
      </td>
    </tr>
  );
}

function Invitations({ orgId }: { orgId: string }) {
  const qc = useQueryClient();
  const list = useCursorList(organizationQueries.invitations(orgId));
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const revoke = useMutation({
    mutationFn: (i: Invitation) => api.del<void>(`/api/organizations/${orgId}/invitations/${i.id}`),
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
function InviteDialog({ orgId, onClose }: { orgId: string; onClose: () => void }) {
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
      const inv = await api.post<Invitation & { acceptUrl: string }>(`/api/organizations/${orgId}/invitations`, {
        email: email.trim(),
        role,
      });
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

function RemoveDialog({ m, orgId, me, onClose }: { m: Member; orgId: string; me: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const setSession = useSetSession();
  const r = useMutation({
    mutationFn: async () => {
      await api.del<void>(`/api/organizations/${orgId}/members/${m.userId}`);
      return me ? api.get<Session>("/api/auth/session") : null;
    },
    onSuccess: (s) => {
      if (s) {
        setSession(s);
        navigate("/");
        return;
      }
      void qc.invalidateQueries({ queryKey: organizationKeys.members(orgId) });
      onClose();
    },
  });
  return (
    <Dialog title={me ? "Leave the organization?" : `Remove ${m.email}?`} onClose={onClose}>
      <p>
        {me
          ? "You lose access to its projects, workflows and runs, and your API keys of the organization are revoked. An admin can invite you again."
          : `${m.email} loses access at once, and their API keys of the organization are revoked.`}
      </p>
      <ErrorMessage error={r.error} title={me ? "You did not leave" : "Not removed"} />
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="danger primary" onClick={() => r.mutate()} disabled={r.isPending}>
          {me ? "Leave organization" : "Remove member"}
        </button>
      </div>
    </Dialog>
  );
}

function TransferDialog({ orgId, members, onClose }: { orgId: string; members: Member[]; onClose: () => void }) {
  const qc = useQueryClient();
  const refresh = useRefreshSession();
  const [to, setTo] = useState(members[0]?.userId ?? "");
  const t = useMutation({
    mutationFn: () => api.post<Member>(`/api/organizations/${orgId}/transfer-ownership`, { userId: to }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: organizationKeys.team(orgId) });
      refresh();
      onClose();
    },
  });
  return (
    <Dialog title="Transfer ownership" onClose={onClose}>
      {members.length === 0 ? (
        <p>There is no other member to make the owner. Invite one first.</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            t.mutate();
          }}
        >
          <p>The member you choose becomes the owner; you become an admin. Only the new owner can give it back.</p>
          <div className="field">
            <label htmlFor="transfer-to">New owner</label>
            <select id="transfer-to" value={to} onChange={(e) => setTo(e.target.value)}>
              {members.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.email}
                </option>
              ))}
            </select>
          </div>
          <ErrorMessage error={t.error} title="Not transferred" />
          <div className="actions">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="danger primary" disabled={t.isPending}>
              Transfer ownership
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
