import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../../api/client";
import { organizationKeys, organizationQueries } from "../../../api/queries/organizations";
import { ErrorMessage, formatTime } from "../../../app/ui";
import type { Member, Role } from "../../../api/models";

import { useRefreshSession } from "./team";

// MemberRow is one member of the team: email, name, role (a selector for those who may change it), since when, and
// Remove or Leave.
export function MemberRow({
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
    mutationFn: (role: Role) =>
      ok(
        api.PATCH("/api/organizations/{organizationId}/members/{userId}", {
          params: { path: { organizationId: orgId, userId: m.userId } },
          body: { role },
        }),
      ),
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
