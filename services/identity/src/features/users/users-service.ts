import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthenticatedCaller } from '@platform/auth';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import { recordEvent, type EventActor } from '@platform/events';
import type { Identity, User } from './user.entity.ts';
import type { NewIdentity, UserStore } from './users-store.ts';
import type { CreateUserParams } from './users.schemas.ts';
import { userCreatedEvent } from './users.events.ts';

const USERNAME_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const MINIMUM_PASSWORD_LENGTH = 8;

export interface UserWithIdentities {
  user: User;
  identities: Identity[];
}

export function actorOf(caller: AuthenticatedCaller): EventActor {
  return {
    id: caller.userId,
    username: caller.username,
    name: caller.name,
    ...(caller.ip ? { ip: caller.ip } : {}),
    ...(caller.impersonatorId ? { impersonatorId: caller.impersonatorId } : {}),
  };
}

/** The record-level rules GitLab reports as `{"message": {"field": ["..."]}}`. */
function validateNewUser(input: CreateUserParams): void {
  const problems: Record<string, string[]> = {};
  if (!EMAIL_PATTERN.test(input.email)) problems.email = ['is invalid'];
  if (!input.name.trim()) problems.name = ["can't be blank"];
  if (!USERNAME_PATTERN.test(input.username) || /(\.git|\.atom|\.)$/.test(input.username)) {
    problems.username = [
      "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.",
    ];
  }
  if (input.password !== undefined && !input.reset_password && !input.force_random_password) {
    if (input.password.length < MINIMUM_PASSWORD_LENGTH) {
      problems.password = [`is too short (minimum is ${MINIMUM_PASSWORD_LENGTH} characters)`];
    }
  }
  if (input.projects_limit !== undefined && input.projects_limit < 0) {
    problems.projects_limit = ['must be greater than or equal to 0'];
  }
  if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
}

export class UsersService {
  readonly #em: EntityManager;
  readonly #store: UserStore;

  constructor(options: { em: EntityManager; store: UserStore }) {
    this.#em = options.em;
    this.#store = options.store;
  }

  async get(id: number): Promise<UserWithIdentities> {
    const user = await this.#store.findById(id);
    if (!user) throw new NotFoundError('User');
    const identities = (await this.#store.identitiesOf([user.id])).get(user.id) ?? [];
    return { user, identities };
  }

  /** Creates a user and its `identity.user.created` event in one transaction. */
  async create(actor: AuthenticatedCaller, input: CreateUserParams): Promise<UserWithIdentities> {
    validateNewUser(input);
    // The password flags win over a given password: the user sets one through a reset.
    const randomPassword = input.reset_password || input.force_random_password;
    const password = randomPassword ? randomBytes(24).toString('base64url') : input.password;
    const passwordHash = password === undefined ? null : await hash(password);
    const identities: NewIdentity[] =
      input.extern_uid !== undefined && input.provider !== undefined
        ? [{ provider: input.provider, externUid: input.extern_uid }]
        : [];
    return this.#em.transactional(async (em) => {
      const user = await this.#store.insert(
        {
          email: input.email,
          name: input.name,
          username: input.username,
          passwordHash,
          isAdmin: input.admin ?? false,
          bio: input.bio ?? '',
          canCreateGroup: input.can_create_group ?? true,
          colorSchemeId: input.color_scheme_id ?? 1,
          external: input.external ?? false,
          location: input.location ?? '',
          note: input.note ?? null,
          organization: input.organization ?? '',
          privateProfile: input.private_profile ?? false,
          projectsLimit: input.projects_limit ?? 100000,
          publicEmail: input.public_email ?? null,
          messengerId: input.messenger_id ?? '',
          professionalProfile: input.professional_profile ?? '',
          socialHandle: input.social_handle ?? '',
          websiteUrl: input.website_url ?? '',
          jobTitle: input.job_title ?? '',
          themeId: input.theme_id ?? 1,
          confirmedAt: input.skip_confirmation ? new Date() : null,
        },
        identities,
      );
      recordEvent(em, { ...userCreatedEvent(user), actor: actorOf(actor) });
      const stored = (await this.#store.identitiesOf([user.id])).get(user.id) ?? [];
      return { user, identities: stored };
    });
  }
}
