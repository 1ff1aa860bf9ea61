import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { api, ok } from "../../../api/client";
import { organizationKeys } from "../../../api/queries/organizations";
import { useSetSession } from "../../../app/session";
import { Dialog, ErrorMessage } from "../../../app/ui";
import type { Member } from "../../../api/models";

import { useRefreshSession } from "./team";

// The team page's confirmations: removing a member (or leaving), and transferring the ownership.
export function RemoveDialog({ m, orgId, me, onClose }: { m: Member; orgId: string; me: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const setSession = useSetSession();
  const r = useMutation({
    mutationFn: async () => {
      await ok(
        api.DELETE("/api/organizations/{organizationId}/members/{userId}", {
          params: { path: { organizationId: orgId, userId: m.userId } },
        }),
      );
      return me ? ok(api.GET("/api/auth/session")) : null;
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

export function TransferDialog({ orgId, members, onClose }: { orgId: string; members: Member[]; onClose: () => void }) {
  const qc = useQueryClient();
  const refresh = useRefreshSession();
  const [to, setTo] = useState(members[0]?.userId ?? "");
  const t = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/organizations/{organizationId}/transfer-ownership", {
          params: { path: { organizationId: orgId } },
          body: { userId: to },
        }),
      ),
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
