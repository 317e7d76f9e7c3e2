import type { Caller } from '@platform/auth';
import { renderMarkdown } from '@platform/http';
import type { Identity, User } from './user.entity.ts';
import { avatarUrlView } from '../access/namespace-views.ts';

/**
 * GitLab's representations of a user, from least to most revealing. Which one a caller gets
 * is decided by the routes; these only shape fields.
 */
export interface ViewContext {
  externalUrl: string;
}

/** An entity's `Date`, or the ISO 8601 string a read model selects: both serialise alike. */
type Timestamp = Date | string;

/** What each view shows of a user: an entity, or a read model's row of exactly these columns. */
export type BasicUser = Pick<User, 'id' | 'username' | 'name' | 'state' | 'avatarUrl'>;
export type PublicUser = BasicUser &
  Pick<
    User,
    | 'bio'
    | 'location'
    | 'publicEmail'
    | 'messengerId'
    | 'professionalProfile'
    | 'socialHandle'
    | 'websiteUrl'
    | 'organization'
    | 'jobTitle'
    | 'privateProfile'
  > & { createdAt: Timestamp };
export type FullUser = PublicUser &
  Pick<
    User,
    | 'email'
    | 'namespaceId'
    | 'themeId'
    | 'lastActivityOn'
    | 'colorSchemeId'
    | 'projectsLimit'
    | 'canCreateGroup'
    | 'twoFactorEnabled'
    | 'external'
    | 'isAdmin'
    | 'note'
    | 'currentSignInIp'
    | 'lastSignInIp'
    | 'sharedRunnersMinutesLimit'
    | 'extraSharedRunnersMinutesLimit'
    | 'signInCount'
  > & { lastSignInAt?: Timestamp | null; confirmedAt?: Timestamp | null; currentSignInAt?: Timestamp | null };
export type UserIdentity = Pick<Identity, 'provider' | 'externUid' | 'samlProviderId'>;

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

/** Single-user public view. */
export function publicUserView(user: PublicUser, context: ViewContext) {
  return {
    ...basicUserView(user, context),
    created_at: user.createdAt,
    bio: user.bio,
    bio_html: renderMarkdown(user.bio),
    location: user.location,
    public_email: user.publicEmail ?? '',
    messenger_id: user.messengerId,
    professional_profile: user.professionalProfile,
    social_handle: user.socialHandle,
    website_url: user.websiteUrl,
    organization: user.organization,
    job_title: user.jobTitle,
  };
}

/**
 * `GET /users/:id` for anyone but an administrator: a private profile hides when the account was
 * made from everybody but its owner, as GitLab's `read_user_profile` does.
 */
export function profileViewFor(options: { user: PublicUser; caller: Caller; context: ViewContext }) {
  const { user, caller, context } = options;
  const view = publicUserView(user, context);
  const ownProfile = caller.kind === 'user' && caller.userId === user.id;
  if (!user.privateProfile || ownProfile) return view;
  const { created_at: _createdAt, ...visible } = view;
  return visible;
}

function identitiesView(identities: UserIdentity[]) {
  return identities.map((identity) => ({
    provider: identity.provider,
    extern_uid: identity.externUid,
    ...(identity.provider === 'group_saml' ? { saml_provider_id: identity.samlProviderId } : {}),
  }));
}

/** The fields a user sees of themselves, beyond the public view. */
function privateFields(user: FullUser, identities: UserIdentity[]) {
  return {
    email: user.email,
    commit_email: user.email,
    namespace_id: user.namespaceId ?? null,
    last_sign_in_at: user.lastSignInAt ?? null,
    confirmed_at: user.confirmedAt ?? null,
    theme_id: user.themeId,
    last_activity_on: user.lastActivityOn ?? null,
    color_scheme_id: user.colorSchemeId,
    projects_limit: user.projectsLimit,
    current_sign_in_at: user.currentSignInAt ?? null,
    identities: identitiesView(identities),
    can_create_group: user.canCreateGroup,
    can_create_project: user.projectsLimit > 0,
    two_factor_enabled: user.twoFactorEnabled,
    external: user.external,
    private_profile: user.privateProfile,
  };
}

/** GitLab's `UserPublic`: the public view and the fields a user sees of themselves (a key's owner, to administrators). */
export function userPublicView(user: FullUser, identities: UserIdentity[], context: ViewContext) {
  return { ...publicUserView(user, context), ...privateFields(user, identities) };
}

/** Administrator view, as in `GET /users` for administrators. */
export function adminUserView(user: FullUser, identities: UserIdentity[], context: ViewContext) {
  return {
    ...publicUserView(user, context),
    ...privateFields(user, identities),
    is_admin: user.isAdmin,
    note: user.note ?? null,
    current_sign_in_ip: user.currentSignInIp ?? null,
    last_sign_in_ip: user.lastSignInIp ?? null,
    shared_runners_minutes_limit: user.sharedRunnersMinutesLimit ?? null,
    extra_shared_runners_minutes_limit: user.extraSharedRunnersMinutesLimit ?? null,
  };
}

/** Single-user administrator view adds plan, trial and sign-in count. */
export function adminSingleUserView(user: FullUser, identities: UserIdentity[], context: ViewContext) {
  return { ...adminUserView(user, identities, context), plan: null, trial: false, sign_in_count: user.signInCount };
}

/**
 * `GET /user`: administrators see their administrator view; others lose the administrator-only
 * fields (`is_admin`, `job_title`, the sign-in IPs, and the administrators' `note` about them).
 */
export function currentUserView(user: FullUser, identities: UserIdentity[], context: ViewContext) {
  if (user.isAdmin) return adminSingleUserView(user, identities, context);
  const { job_title: _jobTitle, ...visible } = { ...publicUserView(user, context), ...privateFields(user, identities) };
  return visible;
}

/** `with_custom_attributes=true` adds the custom attributes read with the user to any of the views above. */
export function withAttributesOf<View extends object>(user: { customAttributes?: Array<{ key: string; value: string }> }, view: View) {
  if (!user.customAttributes) return view;
  return { ...view, custom_attributes: user.customAttributes.map(({ key, value }) => ({ key, value })) };
}
