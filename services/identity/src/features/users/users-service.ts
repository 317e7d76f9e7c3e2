import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type AuthenticatedCaller, type Caller } from '@platform/auth';
import { ConflictError, FieldValidationError, ForbiddenError, NotFoundError, UnauthorizedError } from '@platform/errors';
import type { ApplicationSettingsSource } from '@platform/admin-client';
import { recordEvent } from '@platform/events/database';
import type { AttributeChange } from '@platform/proto/identity/v1/events';
import { NON_INTERNAL_USER_TYPES, type User, type UserState } from './user.entity.ts';
import type { PageWindow, Page } from '@platform/db';
import type { NewIdentity, UserChanges, UserStore } from './users-store.ts';
import type { UserListFilter, UserRead, UserRow, UsersReadModel } from './users-read-model.ts';
import type { CreateUserParams, ListUsersParams, UpdateUserParams } from './users.schemas.ts';
import { userCreatedEvent, userDeletedEvent, userStateChangedEvent, userUpdatedEvent } from './users.events.ts';
import type { AvatarChange } from '../avatars/avatar-storage.ts';
import { hashPassword } from '../access/passwords.ts';

const USERNAME_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const MINIMUM_PASSWORD_LENGTH = 8;
const MINIMUM_USERNAME_LENGTH = 2;
/** GitLab's themes (Indigo ... Dark) and file-viewer colour schemes (White ... None). */
const THEME_IDS = { minimum: 1, maximum: 11 };
const COLOR_SCHEME_IDS = { minimum: 1, maximum: 6 };
/** GitLab's default `deactivate_dormant_users_period`: a user active within it is not dormant. */
const DORMANT_PERIOD_DAYS = 90;
/** A user never seen active counts as dormant once their account is this old, as in GitLab. */
const MINIMUM_DAYS_CREATED = 7;
const DAY_MS = 86_400_000;
/** GitLab's deactivation, activation and ban services word their refusals without the API's status line. */
const BARE = { statusLine: false };

/** Banned users are blocked too, as GitLab's state machine has it. */
function isBlocked(user: Pick<User, 'state'>): boolean {
  return user.state === 'blocked' || user.state === 'banned';
}

/** Whether an administrator may deactivate the user: no activity within the dormant period, or none since an old enough sign-up. */
function isDormant(user: Pick<User, 'lastActivityOn' | 'createdAt'>, now: Date): boolean {
  const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
  if (user.lastActivityOn) return user.lastActivityOn <= dayOf(now.getTime() - DORMANT_PERIOD_DAYS * DAY_MS);
  return dayOf(user.createdAt.getTime()) <= dayOf(now.getTime() - MINIMUM_DAYS_CREATED * DAY_MS);
}

/** GitLab answers `PUT /users/:id` with 404 even for a taken email or username, as the spec says. */
export class UserUpdateConflictError extends NotFoundError {
  override name = 'UserUpdateConflictError';
  constructor(message: string) {
    super();
    this.message = message;
  }
}

export type ProfileFields = Partial<
  Pick<
    UpdateUserParams,
    'email' | 'name' | 'username' | 'password' | 'projects_limit' | 'theme_id' | 'color_scheme_id' | 'website_url' | 'public_email'
  > & { shared_runners_minutes_limit: number | null; extra_shared_runners_minutes_limit: number | null }
>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The record-level rules GitLab reports as `{"message": {"field": ["..."]}}`, for the fields
 * given. `email` is the address the user will have, which a public email must match.
 * SCIM provisioning applies the same rules to the attributes an identity provider sets.
 */
export function validateProfile(input: ProfileFields, email: string): void {
  const problems: Record<string, string[]> = {};
  const add = (field: string, problem: string) => (problems[field] ??= []).push(problem);
  if (input.email !== undefined && !EMAIL_PATTERN.test(input.email)) add('email', 'is invalid');
  if (input.name !== undefined && !input.name.trim()) add('name', "can't be blank");
  if (input.username !== undefined) {
    if (input.username.length < MINIMUM_USERNAME_LENGTH) {
      add('username', `is too short (minimum is ${MINIMUM_USERNAME_LENGTH} characters)`);
    }
    if (!USERNAME_PATTERN.test(input.username) || /(\.git|\.atom|\.)$/i.test(input.username)) {
      add('username', "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.");
    }
  }
  if (input.password !== undefined && input.password.length < MINIMUM_PASSWORD_LENGTH) {
    add('password', `is too short (minimum is ${MINIMUM_PASSWORD_LENGTH} characters)`);
  }
  for (const field of ['projects_limit', 'shared_runners_minutes_limit', 'extra_shared_runners_minutes_limit'] as const) {
    const value = input[field];
    if (value !== undefined && value !== null && value < 0) add(field, 'must be greater than or equal to 0');
  }
  if (input.theme_id !== undefined && (input.theme_id < THEME_IDS.minimum || input.theme_id > THEME_IDS.maximum)) {
    add('theme_id', 'is not included in the list');
  }
  if (
    input.color_scheme_id !== undefined &&
    (input.color_scheme_id < COLOR_SCHEME_IDS.minimum || input.color_scheme_id > COLOR_SCHEME_IDS.maximum)
  ) {
    add('color_scheme_id', 'is not included in the list');
  }
  if (input.website_url && !isHttpUrl(input.website_url)) add('website_url', 'is not a valid URL');
  // The only verified address a user has here is their primary email.
  if (input.public_email && input.public_email.toLowerCase() !== email.toLowerCase()) {
    add('public_email', 'is not an email you own');
  }
  if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
}

/** The profile attributes both create and update set, from request names to entity names. */
function profileChanges(input: CreateUserParams | UpdateUserParams): UserChanges {
  const changes: UserChanges = {};
  const set = <Key extends keyof UserChanges>(key: Key, value: UserChanges[Key] | undefined) => {
    if (value !== undefined) changes[key] = value;
  };
  set('isAdmin', input.admin);
  set('bio', input.bio);
  set('canCreateGroup', input.can_create_group);
  set('colorSchemeId', input.color_scheme_id);
  set('external', input.external);
  set('location', input.location);
  set('note', input.note);
  set('organization', input.organization);
  set('privateProfile', input.private_profile === null ? false : input.private_profile);
  set('projectsLimit', input.projects_limit);
  set('publicEmail', input.public_email === undefined ? undefined : input.public_email || null);
  set('messengerId', input.messenger_id);
  set('professionalProfile', input.professional_profile);
  set('socialHandle', input.social_handle);
  set('websiteUrl', input.website_url);
  set('jobTitle', input.job_title);
  set('themeId', input.theme_id);
  set('sharedRunnersMinutesLimit', input.shared_runners_minutes_limit);
  set('extraSharedRunnersMinutesLimit', input.extra_shared_runners_minutes_limit);
  return changes;
}

/**
 * As in GitLab, an external user never creates groups or personal projects, whatever the request
 * says: `can_create_group` false and `projects_limit` 0 are forced whenever the user is external.
 */
function withExternalRestrictions(changes: UserChanges, external: boolean): UserChanges {
  return external ? { ...changes, canCreateGroup: false, projectsLimit: 0 } : changes;
}

/** Attributes whose changes the `identity.user.updated` event names, with their values. */
const AUDITED_ATTRIBUTES = {
  username: 'username',
  email: 'email',
  name: 'name',
  isAdmin: 'admin',
  external: 'external',
  projectsLimit: 'projects_limit',
  canCreateGroup: 'can_create_group',
  privateProfile: 'private_profile',
  publicEmail: 'public_email',
  note: 'note',
} as const satisfies Partial<Record<keyof User, string>>;

function attributeChanges(before: User, after: UserChanges): AttributeChange[] {
  const changes: AttributeChange[] = [];
  for (const [property, attribute] of Object.entries(AUDITED_ATTRIBUTES) as Array<[keyof typeof AUDITED_ATTRIBUTES, string]>) {
    if (!(property in after)) continue;
    const from = before[property];
    const to = after[property];
    if (from !== to) changes.push({ attribute, from: String(from ?? ''), to: String(to ?? '') });
  }
  // A password change is worth auditing; its values never leave the service.
  if ('passwordHash' in after) changes.push({ attribute: 'password', from: '', to: '' });
  return changes;
}

export class UsersService {
  readonly #em: EntityManager;
  readonly #store: UserStore;
  readonly #readModel: UsersReadModel;
  /** Domain of the ghost user's address. */
  readonly #emailDomain: string;

  readonly #settings: ApplicationSettingsSource;

  constructor(options: {
    em: EntityManager;
    store: UserStore;
    /** What GETs read, without entities. */
    readModel: UsersReadModel;
    emailDomain: string;
    /** A new user's projects limit defaults to the application settings' `default_projects_limit`. */
    settings: ApplicationSettingsSource;
  }) {
    this.#em = options.em;
    this.#settings = options.settings;
    this.#store = options.store;
    this.#readModel = options.readModel;
    this.#emailDomain = options.emailDomain;
  }

  /** A user by id, or by the `:id_or_username` of a path. */
  async find(idOrUsername: number | string): Promise<User> {
    const user =
      typeof idOrUsername === 'number' ? await this.#store.findById(idOrUsername) : await this.#store.findByIdOrUsername(idOrUsername);
    if (!user) throw new NotFoundError('User');
    return user;
  }

  /** A user as the view `read` names shows them, read without entities; NotFoundError when nobody has the id. */
  async read<Read extends UserRead>(id: number, read: Read): Promise<UserRow<Read>> {
    const user = await this.#readModel.user(id, read);
    if (!user) throw new NotFoundError('User');
    return user;
  }

  /**
   * `GET /users` as `caller` may see it: anonymous callers only look up active users by username;
   * sorting, the external, creation-time, without-projects and two-factor filters and custom
   * attributes are for administrators, and other callers' values for them are ignored, as in GitLab.
   * With `keyset`, the users after its `afterId` by id, in the order the list's `sort` gives.
   */
  async list<Read extends UserRead>(
    caller: Caller,
    input: ListUsersParams,
    options: {
      read: Read;
      window: PageWindow;
      keyset?: { afterId?: number | undefined; limit: number } | undefined;
    },
  ): Promise<Page<UserRow<Read>>> {
    const filter = this.#listFilter(caller, input);
    const { read } = options;
    if (!options.keyset) return this.#readModel.list(filter, { read, window: options.window });
    const found = await this.#readModel.listAfter({ ...filter, orderBy: 'id' }, { read, ...options.keyset });
    return { items: found.items, total: null, hasNext: found.hasMore };
  }

  #listFilter(caller: Caller, input: ListUsersParams): UserListFilter {
    const isAdmin = caller.kind === 'user' && caller.isAdmin;
    if (input.extern_uid !== undefined && !isAdmin) {
      if (caller.kind === 'anonymous') throw new UnauthorizedError();
      throw new ForbiddenError();
    }
    // Anonymous callers may look a user up by username, never list them all.
    if (caller.kind === 'anonymous' && !input.username) throw new ForbiddenError('Not authorized to access /api/v4/users');
    const states: UserListFilter['states'] = [];
    if (input.active || caller.kind === 'anonymous') states.push('active');
    if (input.blocked) states.push('blocked');
    const search = input.search?.replace(/^@/, '');
    const filter: UserListFilter = {
      ...(search ? { search: { term: search, emailColumn: isAdmin ? 'email' : 'public_email' } } : {}),
      ...(input.username !== undefined ? { username: input.username } : {}),
      states,
      // The external flag, creation times and project membership are for administrators to filter by.
      external: isAdmin && input.external === true,
      excludeInternal: input.exclude_internal === true,
      withoutProjects: isAdmin && input.without_projects === true,
      ...(input.extern_uid !== undefined && input.provider !== undefined
        ? { identity: { provider: input.provider, externUid: input.extern_uid } }
        : {}),
      ...(isAdmin && input.created_before ? { createdBefore: input.created_before } : {}),
      ...(isAdmin && input.created_after ? { createdAfter: input.created_after } : {}),
      ...(isAdmin && input.custom_attributes ? { customAttributes: input.custom_attributes } : {}),
      ...(isAdmin && input.two_factor ? { twoFactorEnabled: input.two_factor === 'enabled' } : {}),
      orderBy: isAdmin ? orderField(input.order_by ?? 'id') : 'id',
      sort: isAdmin ? (input.sort ?? 'desc') : 'desc',
    };
    return filter;
  }

  /** Creates a user and its `identity.user.created` event in one transaction. */
  async create(actor: AuthenticatedCaller, input: CreateUserParams, avatar?: AvatarChange): Promise<User> {
    // The password flags win over a given password: the user sets one through a reset.
    const randomPassword = input.reset_password || input.force_random_password;
    validateProfile({ ...input, ...(randomPassword ? { password: undefined } : {}) }, input.email);
    const password = randomPassword ? randomBytes(24).toString('base64url') : input.password;
    const passwordHash = password === undefined ? null : await hashPassword(password);
    const identities: NewIdentity[] =
      input.extern_uid !== undefined && input.provider !== undefined ? [{ provider: input.provider, externUid: input.extern_uid }] : [];
    return this.#em.transactional(async (em) => {
      const user = await this.#store.insert(
        {
          email: input.email,
          name: input.name,
          username: input.username,
          passwordHash,
          confirmedAt: input.skip_confirmation ? new Date() : null,
          ...withExternalRestrictions(
            { projectsLimit: this.#settings.current().defaultProjectsLimit, ...profileChanges(input) },
            input.external === true,
          ),
        },
        identities,
      );
      if (avatar) {
        avatar.applyTo(user, 'user');
        await this.#store.update(user, {});
      }
      recordEvent(em, { ...userCreatedEvent(user), actor: actorOf(actor) });
      return user;
    });
  }

  /**
   * Updates a user. A new password set by someone else expires at once, so its owner must
   * change it at the next sign-in. A taken email or username is a 404, as the spec says.
   */
  async update(actor: AuthenticatedCaller, input: UpdateUserParams, avatar?: AvatarChange): Promise<User> {
    return this.#em.transactional(async (em) => {
      const user = await this.#store.findById(input.id);
      if (!user) throw new NotFoundError('User');
      validateProfile(input, input.email ?? user.email);
      const changes: UserChanges = withExternalRestrictions(profileChanges(input), input.external ?? user.external);
      if (input.name !== undefined) changes.name = input.name;
      if (input.username !== undefined) changes.username = input.username;
      if (input.email !== undefined && input.email !== user.email) {
        changes.email = input.email;
        // Without mail delivery a new address counts as confirmed only when the administrator says so.
        if (input.email.toLowerCase() !== user.email.toLowerCase()) {
          changes.confirmedAt = input.skip_reconfirmation ? new Date() : null;
        }
      }
      if (input.password !== undefined) {
        changes.passwordHash = await hashPassword(input.password);
        changes.passwordExpiresAt = actor.userId === user.id ? null : new Date();
      }
      const identity =
        input.extern_uid !== undefined && input.provider !== undefined
          ? { provider: input.provider, externUid: input.extern_uid }
          : undefined;
      const audited = attributeChanges(user, changes);
      if (avatar) {
        const change = avatar.applyTo(user, 'user');
        if (change.from !== change.to) audited.push(change);
      }
      try {
        await this.#store.update(user, changes, identity);
      } catch (error) {
        if (error instanceof ConflictError) throw new UserUpdateConflictError(error.message);
        throw error;
      }
      recordEvent(em, { ...userUpdatedEvent(user, audited), actor: actorOf(actor) });
      return user;
    });
  }

  /**
   * Deletes a user. A soft delete hands the user's contributions to the ghost user and is
   * refused while the user is the sole owner of a group; no delete may remove the last
   * administrator.
   */
  async delete(actor: AuthenticatedCaller, options: { id: number; hardDelete: boolean }): Promise<void> {
    await this.#em.transactional(async (em) => {
      const user = await this.#store.findById(options.id);
      if (!user) throw new NotFoundError('User');
      if (user.userType === 'ghost') throw new ConflictError('The ghost user cannot be removed');
      if (user.isAdmin && user.state === 'active' && (await this.#store.countActiveAdminsOtherThan(user.id)) === 0) {
        throw new ConflictError('User cannot be removed while is the last administrator');
      }
      if (!options.hardDelete && (await this.#store.countSolelyOwnedGroups(user.id)) > 0) {
        throw new ConflictError('User cannot be removed while is the sole-owner of a group');
      }
      const ghostUserId = options.hardDelete ? 0 : (await this.#store.ghostUser(this.#emailDomain)).id;
      recordEvent(em, { ...userDeletedEvent(user, { hardDelete: options.hardDelete, ghostUserId }), actor: actorOf(actor) });
      await this.#store.remove(user);
    });
  }

  /** Blocks a user; their tokens stop working. Answers false when the user already was blocked (or banned, a kind of block). */
  async block(actor: AuthenticatedCaller, id: number): Promise<boolean> {
    return this.#changeState(actor, id, (user) => {
      if (user.id === actor.userId) throw new ForbiddenError('The API initiating user cannot be blocked by the API');
      return isBlocked(user) ? null : 'blocked';
    });
  }

  /** Unblocks a blocked user. Answers false when the user was not blocked; a deactivated user is activated instead. */
  async unblock(actor: AuthenticatedCaller, id: number): Promise<boolean> {
    return this.#changeState(actor, id, (user) => {
      if (user.state === 'deactivated') throw new ForbiddenError('Deactivated users cannot be unblocked by the API');
      return user.state === 'blocked' ? 'active' : null;
    });
  }

  /**
   * Deactivates a dormant user; their tokens stop working until an administrator activates them.
   * Answers false when the user already was deactivated.
   */
  async deactivate(actor: AuthenticatedCaller, id: number): Promise<boolean> {
    return this.#changeState(actor, id, (user) => {
      if (user.state === 'deactivated') return null;
      if (isBlocked(user)) throw new ForbiddenError('Error occurred. A blocked user cannot be deactivated', BARE);
      if (!(NON_INTERNAL_USER_TYPES as readonly string[]).includes(user.userType)) {
        throw new ForbiddenError('Internal users cannot be deactivated', BARE);
      }
      if (!isDormant(user, new Date())) {
        throw new ForbiddenError(
          `The user you are trying to deactivate has been active in the past ${DORMANT_PERIOD_DAYS} days and cannot be deactivated`,
          BARE,
        );
      }
      return 'deactivated';
    });
  }

  /** Activates a deactivated user; an active one stays as they are. Blocked and banned users are unblocked or unbanned instead. */
  async activate(actor: AuthenticatedCaller, id: number): Promise<void> {
    await this.#changeState(actor, id, (user) => {
      if (isBlocked(user)) throw new ForbiddenError('Error occurred. A blocked user must be unblocked to be activated', BARE);
      return user.state === 'deactivated' ? 'active' : null;
    });
  }

  /** Bans an active user; their tokens stop working. */
  async ban(actor: AuthenticatedCaller, id: number): Promise<void> {
    await this.#changeState(actor, id, (user) => {
      if (user.state !== 'active') throw new ForbiddenError(`You cannot ban ${user.state} users.`, BARE);
      return 'banned';
    });
  }

  /** Lifts a ban. */
  async unban(actor: AuthenticatedCaller, id: number): Promise<void> {
    await this.#changeState(actor, id, (user) => {
      if (user.state !== 'banned') throw new ForbiddenError(`You cannot unban ${user.state} users.`, BARE);
      return 'active';
    });
  }

  /**
   * Moves a user to the state `next` names (which throws the refusals), with its event, in one
   * transaction. `next` answers null when the user stays as they are: then this answers false.
   */
  async #changeState(actor: AuthenticatedCaller, id: number, next: (user: User) => UserState | null): Promise<boolean> {
    return this.#em.transactional(async (em) => {
      const user = await this.#store.findById(id);
      if (!user) throw new NotFoundError('User');
      const from = user.state;
      const to = next(user);
      if (to === null) return false;
      await this.#store.update(user, { state: to });
      recordEvent(em, { ...userStateChangedEvent(user, from), actor: actorOf(actor) });
      return true;
    });
  }

  /** Unlinks the user from an external identity provider. */
  async removeIdentity(actor: AuthenticatedCaller, options: { id: number; provider: string }): Promise<void> {
    await this.#em.transactional(async (em) => {
      const user = await this.#store.findById(options.id);
      if (!user) throw new NotFoundError('User');
      if (!(await this.#store.removeIdentity(user.id, options.provider))) throw new NotFoundError('Identity');
      const change: AttributeChange = { attribute: 'identity', from: options.provider, to: '' };
      recordEvent(em, { ...userUpdatedEvent(user, [change]), actor: actorOf(actor) });
    });
  }
}

function orderField(orderBy: NonNullable<ListUsersParams['order_by']>): UserListFilter['orderBy'] {
  if (orderBy === 'created_at') return 'createdAt';
  if (orderBy === 'updated_at') return 'updatedAt';
  return orderBy;
}
