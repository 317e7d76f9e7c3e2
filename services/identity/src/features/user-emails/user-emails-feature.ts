import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { UsersService } from '../users/users-service.ts';
import { UserEmail } from './user-email.entity.ts';
import { PgUserEmailStore } from './user-emails-store.ts';
import { UserEmailsService } from './user-emails-service.ts';
import { userEmailsRoutes } from './user-emails-routes.ts';

export const userEmailsEntities = [UserEmail];

/** Users' secondary emails. */
export function createUserEmailsFeature(deps: { em: EntityManager; users: UsersService }): Feature {
  const emails = new UserEmailsService({ em: deps.em, emails: new PgUserEmailStore(deps.em) });
  return { routes: [createRouter(userEmailsRoutes, { emails, users: deps.users })] };
}
