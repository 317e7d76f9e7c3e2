import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { AdministratorCheck } from '@platform/auth';
import { readModelDatabase, type EntityManager } from '@platform/db';
import { NotFoundError } from '@platform/errors';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { PgCustomAttributeStore } from '../custom-attributes/custom-attributes-store.ts';
import { CustomAttributesService } from '../custom-attributes/custom-attributes-service.ts';
import { Identity, User } from './user.entity.ts';
import type { ViewContext } from './user-views.ts';
import { PgUserStore, type UserStore } from './users-store.ts';
import { UsersService } from './users-service.ts';
import { UsersReadModel } from './users-read-model.ts';
import { usersRoutes } from './users-routes.ts';
import { CurrentAdministrators } from './current-administrators.ts';
import type { AvatarStorage } from '../avatars/avatar-storage.ts';

export const usersEntities = [User, Identity];

export interface UsersFeature extends Feature {
  users: UsersService;
  store: UserStore;
  /** Users read without entities, for the views other features serve. */
  readModel: UsersReadModel;
  /** Users' custom attributes: listed with users here, edited through the custom-attributes feature. */
  customAttributes: CustomAttributesService;
  /** Who is an administrator now, from the user's row: confirms administrator-only routes and identity's CheckAdministrator. */
  administrators: AdministratorCheck;
}

/** Users: accounts, their identities and states. */
export function createUsersFeature(deps: {
  em: EntityManager;
  avatars: AvatarStorage;
  views: ViewContext;
  settings: ApplicationSettingsSource;
}): UsersFeature {
  const { em, avatars, views } = deps;
  const store = new PgUserStore(em);
  const readModel = new UsersReadModel(readModelDatabase(em), views.externalUrl);
  const users = new UsersService({
    em,
    store,
    readModel,
    emailDomain: `noreply.${new URL(views.externalUrl).hostname}`,
    settings: deps.settings,
  });
  const customAttributes = new CustomAttributesService({
    attributes: new PgCustomAttributeStore(em, 'user'),
    ownerId: async (idOrUsername: string) => {
      const user = await store.findByIdOrUsername(idOrUsername);
      if (!user) throw new NotFoundError('User');
      return user.id;
    },
  });
  return {
    users,
    store,
    readModel,
    customAttributes,
    administrators: new CurrentAdministrators(store),
    routes: [createRouter(usersRoutes, { users, avatars, views })],
  };
}
