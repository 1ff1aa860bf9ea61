// An organization's team (GET /api/organizations/:id/…): its members and invitations.
import { queryOptions } from "@tanstack/react-query";
import type { Invitation, Member } from "../../pages/settings/types";
import { api } from "../client";
import type { Page } from "../types";
import { cursorPages } from "./cursor";

export const organizationKeys = {
  // team: everything read about an organization's members and invitations.
  team: (organizationId: string) => ["team", organizationId] as const,
  members: (organizationId: string) => ["team", organizationId, "members"] as const,
};

const path = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}`;

export const organizationQueries = {
  // members: the organization's members, page after page.
  members: (organizationId: string) => cursorPages<Member>(organizationKeys.members(organizationId), `${path(organizationId)}/members`),
  // firstMembers: its first 100 members (the audit log names its actors with them).
  firstMembers: (organizationId: string) =>
    queryOptions({
      queryKey: [...organizationKeys.members(organizationId), "first-page"] as const,
      queryFn: () => api.get<Page<Member>>(`${path(organizationId)}/members?limit=100`),
    }),
  // invitations: the organization's invitations, page after page.
  invitations: (organizationId: string) =>
    cursorPages<Invitation>([...organizationKeys.team(organizationId), "invitations"] as const, `${path(organizationId)}/invitations`),
};
