/**
 * What each catalogued route protects, for the permission matrix: the resource its `:id` names and
 * the least membership role GitLab requires there. Every route in the catalogue needs an entry.
 */

/** GitLab's access levels; 0 is "may see the resource" (any member of a private one). */
export const ROLE = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;

export interface MatrixEntry {
  /** What the path's `:id` is: a private group or project of the fixture, a user, or nothing. */
  target: 'group' | 'project' | 'user' | 'none' | 'scim';
  /** The least role on the target group or project that may call the route. */
  minRole?: number;
  /** Destroys what later routes use (the fixture group or project, the caller's own token): runs last. */
  destructive?: boolean;
  /**
   * Valid parameters for a write that requires some: GitLab validates parameters before it
   * authorizes, so with an empty body every caller would get 400 and authorization went unseen.
   */
  body?: (ids: MatrixIds) => Record<string, unknown>;
}

/** Fixture ids a matrix entry's body may name. */
export interface MatrixIds {
  /** A member (guest) of the fixture group. */
  userId: number;
  /** A group other than the fixture's. */
  otherGroupId: number;
}

const group = (minRole: number, destructive = false): MatrixEntry => ({
  target: 'group',
  minRole,
  ...(destructive ? { destructive } : {}),
});
const project = (minRole: number, destructive = false): MatrixEntry => ({
  target: 'project',
  minRole,
  ...(destructive ? { destructive } : {}),
});
const user: MatrixEntry = { target: 'user' };
const none: MatrixEntry = { target: 'none' };
const scim: MatrixEntry = { target: 'scim' };

export const MATRIX_ENTRIES: Record<string, MatrixEntry> = {
  'GET /api/v4/audit_events': none,
  'GET /api/v4/audit_events/:id': none,
  'GET /api/v4/groups/:id/audit_events': group(ROLE.owner),
  'GET /api/v4/groups/:id/audit_events/:audit_event_id': group(ROLE.owner),
  'GET /api/v4/projects/:id/audit_events': project(ROLE.maintainer),
  'GET /api/v4/projects/:id/audit_events/:audit_event_id': project(ROLE.maintainer),
  'GET /api/v4/groups/:id/access_requests': group(ROLE.owner),
  'POST /api/v4/groups/:id/access_requests': group(ROLE.guest),
  'PUT /api/v4/groups/:id/access_requests/:user_id/approve': group(ROLE.owner),
  'DELETE /api/v4/groups/:id/access_requests/:user_id': group(ROLE.guest),
  'GET /api/v4/projects/:id/access_requests': project(ROLE.maintainer),
  'POST /api/v4/projects/:id/access_requests': project(ROLE.guest),
  'PUT /api/v4/projects/:id/access_requests/:user_id/approve': project(ROLE.maintainer),
  'DELETE /api/v4/projects/:id/access_requests/:user_id': project(ROLE.guest),
  'GET /api/v4/users/:id/custom_attributes': user,
  'GET /api/v4/users/:id/custom_attributes/:key': user,
  'PUT /api/v4/users/:id/custom_attributes/:key': user,
  'DELETE /api/v4/users/:id/custom_attributes/:key': user,
  'GET /api/v4/groups/:id/custom_attributes': group(ROLE.guest),
  'GET /api/v4/groups/:id/custom_attributes/:key': group(ROLE.guest),
  'PUT /api/v4/groups/:id/custom_attributes/:key': group(ROLE.guest),
  'DELETE /api/v4/groups/:id/custom_attributes/:key': group(ROLE.guest),
  'GET /api/v4/projects/:id/custom_attributes': project(ROLE.guest),
  'GET /api/v4/projects/:id/custom_attributes/:key': project(ROLE.guest),
  'PUT /api/v4/projects/:id/custom_attributes/:key': project(ROLE.guest),
  'DELETE /api/v4/projects/:id/custom_attributes/:key': project(ROLE.guest),
  'GET /api/v4/user/gpg_keys': none,
  'GET /api/v4/user/gpg_keys/:key_id': none,
  'POST /api/v4/user/gpg_keys': none,
  'DELETE /api/v4/user/gpg_keys/:key_id': none,
  'GET /api/v4/users/:user_id/gpg_keys': user,
  'GET /api/v4/users/:user_id/gpg_keys/:key_id': user,
  'POST /api/v4/users/:user_id/gpg_keys': user,
  'DELETE /api/v4/users/:user_id/gpg_keys/:key_id': user,
  'GET /api/v4/groups': none,
  'GET /api/v4/groups/:id/subgroups': group(ROLE.guest),
  'GET /api/v4/groups/:id/descendant_groups': group(ROLE.guest),
  'GET /api/v4/groups/:id/projects': group(ROLE.guest),
  'GET /api/v4/groups/:id/projects/shared': group(ROLE.guest),
  'POST /api/v4/groups': none,
  'GET /api/v4/groups/:id': group(ROLE.guest),
  'PUT /api/v4/groups/:id': group(ROLE.owner),
  'DELETE /api/v4/groups/:id': group(ROLE.owner, true),
  'POST /api/v4/groups/:id/share': { ...group(ROLE.owner), body: (ids) => ({ group_id: ids.otherGroupId, group_access: ROLE.guest }) },
  'DELETE /api/v4/groups/:id/share/:group_id': group(ROLE.owner),
  'GET /api/v4/groups/:id/avatar': group(ROLE.guest),
  'POST /api/v4/groups/:id/transfer': group(ROLE.owner),
  'GET /api/v4/groups/:id/transfer_locations': group(ROLE.owner),
  'POST /api/v4/groups/:id/projects/:project_id': group(ROLE.owner),
  'GET /api/v4/groups/:id/members/all': group(ROLE.guest),
  'GET /api/v4/groups/:id/members/all/:user_id': group(ROLE.guest),
  'GET /api/v4/groups/:id/members': group(ROLE.guest),
  'GET /api/v4/groups/:id/members/:user_id': group(ROLE.guest),
  'POST /api/v4/groups/:id/members': { ...group(ROLE.owner), body: (ids) => ({ user_id: ids.userId, access_level: ROLE.guest }) },
  'PUT /api/v4/groups/:id/members/:user_id': { ...group(ROLE.owner), body: () => ({ access_level: ROLE.guest }) },
  'DELETE /api/v4/groups/:id/members/:user_id': group(ROLE.owner),
  'GET /api/v4/projects/:id/members/all': project(ROLE.guest),
  'GET /api/v4/projects/:id/members/all/:user_id': project(ROLE.guest),
  'GET /api/v4/projects/:id/members': project(ROLE.guest),
  'GET /api/v4/projects/:id/members/:user_id': project(ROLE.guest),
  'POST /api/v4/projects/:id/members': { ...project(ROLE.maintainer), body: (ids) => ({ user_id: ids.userId, access_level: ROLE.guest }) },
  'PUT /api/v4/projects/:id/members/:user_id': { ...project(ROLE.maintainer), body: () => ({ access_level: ROLE.guest }) },
  'DELETE /api/v4/projects/:id/members/:user_id': project(ROLE.maintainer),
  'GET /api/v4/namespaces': none,
  'GET /api/v4/namespaces/:id': group(ROLE.guest),
  'GET /api/v4/projects': none,
  'POST /api/v4/projects': none,
  'GET /api/v4/projects/:id': project(ROLE.guest),
  'PUT /api/v4/projects/:id': project(ROLE.maintainer),
  'DELETE /api/v4/projects/:id': project(ROLE.owner, true),
  'POST /api/v4/projects/:id/archive': project(ROLE.maintainer),
  'POST /api/v4/projects/:id/unarchive': project(ROLE.maintainer),
  'POST /api/v4/projects/:id/share': {
    ...project(ROLE.maintainer),
    body: (ids) => ({ group_id: ids.otherGroupId, group_access: ROLE.guest }),
  },
  'DELETE /api/v4/projects/:id/share/:group_id': project(ROLE.maintainer),
  'GET /api/v4/projects/:id/avatar': project(ROLE.guest),
  'PUT /api/v4/projects/:id/transfer': project(ROLE.owner),
  'GET /api/v4/projects/:id/transfer_locations': project(ROLE.owner),
  'POST /api/v4/projects/:id/star': project(ROLE.guest),
  'POST /api/v4/projects/:id/unstar': project(ROLE.guest),
  'GET /api/v4/projects/:id/repository/branches': project(ROLE.reporter),
  'GET /api/v4/projects/:id/repository/branches/:branch': project(ROLE.reporter),
  'POST /api/v4/projects/:id/repository/branches': { ...project(ROLE.developer), body: () => ({ branch: 'matrix', ref: 'main' }) },
  'GET /api/v4/projects/:id/repository/commits/:sha': project(ROLE.reporter),
  'GET /api/v4/projects/:id/packages': project(ROLE.reporter),
  'GET /api/v4/groups/:id/packages': group(ROLE.guest),
  'GET /api/v4/projects/:id/packages/:package_id': project(ROLE.reporter),
  'GET /api/v4/projects/:id/packages/:package_id/package_files': project(ROLE.reporter),
  'DELETE /api/v4/projects/:id/packages/:package_id': project(ROLE.maintainer),
  'DELETE /api/v4/projects/:id/packages/:package_id/package_files/:package_file_id': project(ROLE.maintainer),
  'PUT /api/v4/projects/:id/packages/npm/:package_name': project(ROLE.developer),
  'GET /api/v4/projects/:id/packages/npm/:package_name': project(ROLE.reporter),
  'GET /api/v4/projects/:id/packages/npm/:package_name/-/:file_name': project(ROLE.reporter),
  'GET /api/v4/projects/:id/packages/npm/-/package/:package_name/dist-tags': project(ROLE.reporter),
  'PUT /api/v4/projects/:id/packages/npm/-/package/:package_name/dist-tags/:tag': project(ROLE.developer),
  'DELETE /api/v4/projects/:id/packages/npm/-/package/:package_name/dist-tags/:tag': project(ROLE.maintainer),
  'GET /api/v4/packages/npm/:package_name': none,
  'GET /api/v4/packages/npm/:package_name/-/:file_name': none,
  'GET /api/v4/packages/npm/-/package/:package_name/dist-tags': none,
  'PUT /api/v4/packages/npm/-/package/:package_name/dist-tags/:tag': none,
  'DELETE /api/v4/packages/npm/-/package/:package_name/dist-tags/:tag': none,
  'PUT /api/v4/projects/:id/packages/maven/*path/:file_name': project(ROLE.developer),
  'GET /api/v4/projects/:id/packages/maven/*path/:file_name': project(ROLE.reporter),
  'GET /api/v4/groups/:id/-/packages/maven/*path/:file_name': group(ROLE.guest),
  'GET /api/v4/packages/maven/*path/:file_name': none,
  'GET /api/v4/projects/:id/protected_branches': project(ROLE.maintainer),
  'GET /api/v4/projects/:id/protected_branches/:name': project(ROLE.maintainer),
  'POST /api/v4/projects/:id/protected_branches': project(ROLE.maintainer),
  'PATCH /api/v4/projects/:id/protected_branches/:name': project(ROLE.maintainer),
  'DELETE /api/v4/projects/:id/protected_branches/:name': project(ROLE.maintainer),
  'GET /api/v4/groups/:id/saml': group(ROLE.owner),
  'PUT /api/v4/groups/:id/saml': group(ROLE.owner),
  'GET /api/v4/user/scim_links': none,
  'POST /api/v4/user/scim_links/:group_id/confirm': none,
  'DELETE /api/v4/user/scim_links/:group_id': none,
  'GET /api/scim/v2/groups/:group_path/Users': scim,
  'GET /api/scim/v2/groups/:group_path/Users/:id': scim,
  'POST /api/scim/v2/groups/:group_path/Users': scim,
  'PATCH /api/scim/v2/groups/:group_path/Users/:id': scim,
  'DELETE /api/scim/v2/groups/:group_path/Users/:id': scim,
  'POST /api/v4/groups/:id/scim/token': group(ROLE.owner),
  'DELETE /api/v4/groups/:id/scim/token': group(ROLE.owner),
  'GET /api/v4/version': none,
  'GET /api/v4/metadata': none,
  'GET /api/v4/user/keys': none,
  'GET /api/v4/user/keys/:key_id': none,
  'POST /api/v4/user/keys': none,
  'DELETE /api/v4/user/keys/:key_id': none,
  'GET /api/v4/users/:user_id/keys': user,
  'GET /api/v4/users/:user_id/keys/:key_id': user,
  'POST /api/v4/users/:user_id/keys': user,
  'DELETE /api/v4/users/:user_id/keys/:key_id': user,
  'POST /api/v4/users/:user_id/personal_access_tokens': user,
  'POST /api/v4/user/personal_access_tokens': none,
  'GET /api/v4/personal_access_tokens': none,
  'GET /api/v4/personal_access_tokens/self': none,
  'DELETE /api/v4/personal_access_tokens/self': { target: 'none', destructive: true },
  'POST /api/v4/personal_access_tokens/self/rotate': { target: 'none', destructive: true },
  'GET /api/v4/personal_access_tokens/:id': none,
  'DELETE /api/v4/personal_access_tokens/:id': none,
  'POST /api/v4/personal_access_tokens/:id/rotate': none,
  'PUT /api/v4/user/avatar': none,
  'GET /api/v4/user/status': none,
  'PUT /api/v4/user/status': none,
  'GET /api/v4/users/:user_id/status': user,
  'GET /api/v4/user': none,
  'GET /api/v4/users': none,
  'GET /api/v4/users/:id': user,
  'POST /api/v4/users': none,
  'PUT /api/v4/users/:id': user,
  'DELETE /api/v4/users/:id': { target: 'user', destructive: true },
  'POST /api/v4/users/:id/block': user,
  'POST /api/v4/users/:id/unblock': user,
  'DELETE /api/v4/users/:id/identities/:provider': user,
};
