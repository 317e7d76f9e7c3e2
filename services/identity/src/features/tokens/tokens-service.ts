import type { EntityManager } from '@mikro-orm/postgresql';
import { requireSudoScope } from '@platform/auth';
import { ForbiddenError, InputError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { User } from '../users/user.entity.ts';
import type { UserStore } from '../users/users-store.ts';
import { PersonalAccessToken } from './personal-access-token.entity.ts';
import { digestToken, generateToken } from './token-digest.ts';
import type { TokenStore } from './tokens-store.ts';
import type { CreateTokenParams } from './tokens.schemas.ts';

export interface Authentication {
  user: User;
  scopes: string[];
  /** The administrator behind a sudo request. */
  impersonator?: User;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function isActive(token: PersonalAccessToken): boolean {
  return !token.revoked && (token.expiresAt == null || token.expiresAt > today());
}

export class TokensService {
  readonly #em: EntityManager;
  readonly #tokens: TokenStore;
  readonly #users: UserStore;

  constructor(options: { em: EntityManager; tokens: TokenStore; users: UserStore }) {
    this.#em = options.em;
    this.#tokens = options.tokens;
    this.#users = options.users;
  }

  /** Issues a token for a user; the plain token is returned here and never again. */
  async create(input: CreateTokenParams): Promise<{ token: PersonalAccessToken; plain: string }> {
    if (input.expires_at !== undefined && input.expires_at <= today()) {
      throw new InputError('expires_at must be in the future');
    }
    const user = await this.#users.findById(input.user_id);
    if (!user) throw new NotFoundError('User');
    const plain = generateToken();
    const token = await this.#tokens.insert({
      userId: user.id,
      name: input.name,
      tokenDigest: digestToken(plain),
      scopes: input.scopes,
      expiresAt: input.expires_at ?? null,
    });
    return { token, plain };
  }

  /**
   * Resolves a token to the acting user. `sudo` (an id or username) lets an administrator
   * act as someone else, as GitLab allows for tokens with the `sudo` scope.
   */
  async authenticate(plain: string, sudo?: string): Promise<Authentication> {
    const token = plain ? await this.#tokens.findByDigest(digestToken(plain)) : null;
    if (!token || !isActive(token)) throw new UnauthorizedError();
    const user = await this.#users.findById(token.userId);
    if (!user) throw new UnauthorizedError();
    if (user.state === 'blocked') throw new ForbiddenError('Your account has been blocked.');
    if (!sudo) return { user, scopes: token.scopes };
    if (!user.isAdmin) throw new ForbiddenError('Must be admin to use sudo');
    requireSudoScope(token.scopes);
    const target = await this.#users.findByIdOrUsername(sudo);
    if (!target) throw new NotFoundError(`User with ID or username '${sudo}'`);
    return { user: target, scopes: token.scopes, impersonator: user };
  }

  /**
   * Makes sure the bootstrap administrator `root` exists and that `rootToken`, when given,
   * authenticates as root. Returns the token to show when one had to be generated.
   */
  async ensureBootstrapAdmin(rootToken: string | undefined): Promise<{ generatedToken?: string }> {
    return this.#em.transactional(async (em) => {
      // Serialises replicas starting at once.
      await em.execute('select pg_advisory_xact_lock(?)', [0x726f6f74]);
      let root = await em.findOne(User, { username: 'root' });
      if (!root) {
        root = em.create(User, {
          username: 'root',
          email: 'admin@example.com',
          name: 'Administrator',
          isAdmin: true,
          confirmedAt: new Date(),
        });
        await em.flush();
      }
      const plain = rootToken ?? generateToken();
      const existing = await this.#tokens.findByDigest(digestToken(plain));
      if (existing) return {};
      if (rootToken === undefined) {
        const rootTokens = await em.count(PersonalAccessToken, { userId: root.id, name: 'bootstrap' });
        if (rootTokens > 0) return {};
      }
      await this.#tokens.insert({
        userId: root.id,
        name: 'bootstrap',
        tokenDigest: digestToken(plain),
        scopes: ['api', 'sudo', 'admin_mode'],
        expiresAt: null,
      });
      return rootToken === undefined ? { generatedToken: plain } : {};
    });
  }
}
