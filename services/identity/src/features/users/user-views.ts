import { isoTimestamp } from '@platform/db';
import type { User } from './user.entity.ts';
import { avatarUrlView } from '../access/namespace-views.ts';
import { customAttributeTable } from '../custom-attributes/custom-attribute.entity.ts';

/**
 * GitLab's representations of a user, from least to most revealing. Which one a caller gets
 * is decided by the routes; these only shape fields. The basic view is built here, from an
 * entity or a row, because other resources embed it; the others are built by PostgreSQL, as
 * the JSON text the routes send (`USER_JSON_VIEWS`).
 */
export interface ViewContext {
  externalUrl: string;
}

/** What the basic view shows of a user: an entity, or a read model's row of exactly these columns. */
export type BasicUser = Pick<User, 'id' | 'username' | 'name' | 'state' | 'avatarUrl'>;

export function avatarUrlOf(user: Pick<User, 'avatarUrl'>, context: ViewContext): string {
  return avatarUrlView(user.avatarUrl, context) ?? `${context.externalUrl}/assets/no_avatar.png`;
}

/** Public list view; also the user summary other resources embed. */
export function basicUserView(user: BasicUser, context: ViewContext) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    avatar_url: avatarUrlOf(user, context),
    web_url: `${context.externalUrl}/${user.username}`,
  };
}

/**
 * A view's fields as PostgreSQL builds them: each JSON key and its expression over the user `u`
 * and `v.base`, the platform's public URL (a parameter of the statement).
 */
type JsonFields = ReadonlyArray<readonly [key: string, expression: string]>;

/** `basicUserView`'s fields, as the views below begin with them. */
const BASIC_FIELDS: JsonFields = [
  ['id', 'u.id'],
  ['username', 'u.username'],
  ['name', 'u.name'],
  ['state', 'u.state'],
  ['avatar_url', `case when coalesce(u.avatar_url, '') = '' then v.base || '/assets/no_avatar.png' else v.base || u.avatar_url end`],
  ['web_url', `v.base || '/' || u.username`],
];

/** Single-user public view. */
const PUBLIC_FIELDS: JsonFields = [
  ...BASIC_FIELDS,
  ['created_at', isoTimestamp('u.created_at')],
  ['bio', 'u.bio'],
  ['bio_html', 'u.bio_html'],
  ['location', 'u.location'],
  ['public_email', `coalesce(u.public_email, '')`],
  ['messenger_id', 'u.messenger_id'],
  ['professional_profile', 'u.professional_profile'],
  ['social_handle', 'u.social_handle'],
  ['website_url', 'u.website_url'],
  ['organization', 'u.organization'],
  ['job_title', 'u.job_title'],
];

const IDENTITIES = `coalesce((select json_agg(case when i.provider = 'group_saml'
    then json_build_object('provider', i.provider, 'extern_uid', i.extern_uid, 'saml_provider_id', i.saml_provider_id)
    else json_build_object('provider', i.provider, 'extern_uid', i.extern_uid) end order by i.id)
  from identities i where i.user_id = u.id), '[]')`;

/** The fields a user sees of themselves, beyond the public view. */
const PRIVATE_FIELDS: JsonFields = [
  ['email', 'u.email'],
  ['commit_email', 'u.email'],
  ['namespace_id', `(select n.id from namespaces n where n.owner_id = u.id and n.kind = 'user')`],
  ['last_sign_in_at', isoTimestamp('u.last_sign_in_at')],
  ['confirmed_at', isoTimestamp('u.confirmed_at')],
  ['theme_id', 'u.theme_id'],
  ['last_activity_on', 'u.last_activity_on'],
  ['color_scheme_id', 'u.color_scheme_id'],
  ['projects_limit', 'u.projects_limit'],
  ['current_sign_in_at', isoTimestamp('u.current_sign_in_at')],
  ['identities', IDENTITIES],
  ['can_create_group', 'u.can_create_group'],
  ['can_create_project', 'u.projects_limit > 0'],
  ['two_factor_enabled', 'u.two_factor_enabled'],
  ['external', 'u.external'],
  ['private_profile', 'u.private_profile'],
];

/** Administrator view, as in `GET /users` for administrators. */
const ADMIN_FIELDS: JsonFields = [
  ...PUBLIC_FIELDS,
  ...PRIVATE_FIELDS,
  ['is_admin', 'u.is_admin'],
  ['note', 'u.note'],
  ['current_sign_in_ip', 'u.current_sign_in_ip'],
  ['last_sign_in_ip', 'u.last_sign_in_ip'],
  ['shared_runners_minutes_limit', 'u.shared_runners_minutes_limit'],
  ['extra_shared_runners_minutes_limit', 'u.extra_shared_runners_minutes_limit'],
];

/** Single-user administrator view adds plan, trial and sign-in count. */
const ADMIN_SINGLE_FIELDS: JsonFields = [...ADMIN_FIELDS, ['plan', 'null'], ['trial', 'false'], ['sign_in_count', 'u.sign_in_count']];

const ATTRIBUTES = customAttributeTable('user');
/** `with_custom_attributes=true` adds the custom attributes to an administrator's view. */
const CUSTOM_ATTRIBUTES: JsonFields = [
  [
    'custom_attributes',
    `coalesce((select json_agg(json_build_object('key', a.key, 'value', a.value) order by a.key)
      from ${ATTRIBUTES.tableName} a where a.${ATTRIBUTES.ownerColumn} = u.id), '[]')`,
  ],
];

function without(fields: JsonFields, key: string): JsonFields {
  return fields.filter(([name]) => name !== key);
}

/** The fields as one JSON object. */
function jsonObject(fields: JsonFields): string {
  return `json_build_object(${fields.map(([key, expression]) => `'${key}', ${expression}`).join(', ')})`;
}

/**
 * The user views PostgreSQL builds, each an expression giving the view's JSON over the user `u`,
 * `v.base` (the public URL) and, for the profile, `v.viewer` (the caller's user id, null for
 * anonymous callers).
 */
export const USER_JSON_VIEWS = {
  /**
   * `GET /users/:id` for anyone but an administrator: a private profile hides when the account was
   * made from everybody but its owner, as GitLab's `read_user_profile` does.
   */
  profile: `case when u.private_profile and u.id is distinct from v.viewer
    then ${jsonObject(without(PUBLIC_FIELDS, 'created_at'))} else ${jsonObject(PUBLIC_FIELDS)} end`,
  /** GitLab's `UserPublic`: the public view and the fields a user sees of themselves (a key's owner, to administrators). */
  userPublic: jsonObject([...PUBLIC_FIELDS, ...PRIVATE_FIELDS]),
  /**
   * `GET /user`: administrators see their administrator view; others lose the administrator-only
   * fields (`is_admin`, `job_title`, the sign-in IPs, and the administrators' `note` about them).
   */
  current: `case when u.is_admin then ${jsonObject(ADMIN_SINGLE_FIELDS)}
    else ${jsonObject(without([...PUBLIC_FIELDS, ...PRIVATE_FIELDS], 'job_title'))} end`,
  admin: jsonObject(ADMIN_FIELDS),
  adminWithAttributes: jsonObject([...ADMIN_FIELDS, ...CUSTOM_ATTRIBUTES]),
  adminSingle: jsonObject(ADMIN_SINGLE_FIELDS),
  adminSingleWithAttributes: jsonObject([...ADMIN_SINGLE_FIELDS, ...CUSTOM_ATTRIBUTES]),
} as const;

export type UserJsonView = keyof typeof USER_JSON_VIEWS;
