import type { User } from '../users/user.entity.ts';
import type { ScimIdentity } from './scim.entity.ts';
import type { SingleSignOnGroupRef } from '../saml-providers/single-sign-on-group.ts';

export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export interface ProvisionedUser {
  identity: ScimIdentity;
  user: User;
}

/**
 * The SCIM User resource of a provisioned user. `id` is the external UID. The name appears both as
 * the nested object of current GitLab and as the flat `name.formatted` key of the spec and older GitLab.
 */
export function scimUserView({ identity, user }: ProvisionedUser) {
  const [givenName = '', ...familyNames] = user.name.trim().split(/\s+/);
  return {
    schemas: [SCIM_USER_SCHEMA],
    id: identity.externUid,
    externalId: identity.externUid,
    active: identity.active,
    userName: user.username,
    'name.formatted': user.name,
    name: { formatted: user.name, givenName, familyName: familyNames.join(' ') },
    emails: [{ type: 'work', value: user.email, primary: true }],
    meta: { resourceType: 'User' },
  };
}

export function scimListView(options: { items: ProvisionedUser[]; total: number; startIndex: number; count: number }) {
  return {
    schemas: [SCIM_LIST_RESPONSE_SCHEMA],
    totalResults: options.total,
    // GitLab reports the page size asked for (after defaulting and capping), not the number returned.
    itemsPerPage: options.count,
    startIndex: options.startIndex,
    Resources: options.items.map(scimUserView),
  };
}

/** A link an identity provider asked for, waiting for the account owner's answer. */
export function scimLinkView({ identity, group }: { identity: ScimIdentity; group: SingleSignOnGroupRef }) {
  return {
    group_id: group.id,
    group_path: group.fullPath,
    extern_uid: identity.externUid,
    created_at: identity.createdAt.toISOString(),
  };
}
