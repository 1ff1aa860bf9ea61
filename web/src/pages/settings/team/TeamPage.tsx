import { useMemo, useState } from "react";
import { useCursorList } from "../../../api/queries/cursor";
import { organizationQueries } from "../../../api/queries/organizations";
import { DataTable } from "../../../app/fields";
import { useSession } from "../../../app/session";
import { ErrorMessage, Loading } from "../../../app/ui";
import type { Member, Role } from "../../../api/models";
import "../settings.css";

import { RemoveDialog, TransferDialog } from "./dialogs";
import { InviteDialog, Invitations } from "./Invitations";
import { MemberRow } from "./MemberRow";
import { article } from "./team";

// TeamPage lists the active organization's members by email with their roles, its invitations, and changes roles,
// removes members, leaves and transfers ownership.
export default function TeamPage() {
  const session = useSession().data!;
  const orgId = session.activeOrganizationId;
  const org = session.organizations.find((o) => o.id === orgId);
  const myRole: Role = org?.role ?? "viewer";
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
