import type { AuthenticatedCaller } from '@platform/auth';

/** A group as single sign-on and provisioning name it. */
export interface SingleSignOnGroupRef {
  id: number;
  fullPath: string;
  /** Single sign-on belongs to top-level groups, as in GitLab: their subgroups follow it. */
  parentId: number | null;
}

/** Who may configure a group's single sign-on and SCIM: its owners and administrators. */
export interface GroupOwnership {
  /** The group `idOrPath` names: 404 when the caller cannot see it, 403 when they do not own it. */
  requireOwnedGroup(caller: AuthenticatedCaller, idOrPath: number | string): Promise<SingleSignOnGroupRef>;
}
