import { z } from 'zod';
import { mapPage } from '@platform/db';
import { routesOf } from '@platform/http';
import type { UsersService } from '../users/users-service.ts';
import type { UserEmailsService } from './user-emails-service.ts';
import { userEmailView } from './user-emails-views.ts';
import { addOwnEmailParams, addUserEmailParams, ownEmailParams, userEmailParams, userEmailsParams } from './user-emails.schemas.ts';

const route = routesOf<{ emails: UserEmailsService; users: UsersService }>('identity');

/** Secondary emails: the current user's (`/user/emails`), and any user's for administrators (`/users/:id/emails`). */
export const userEmailsRoutes = [
  route.list({
    path: '/api/v4/user/emails',
    access: 'user',
    scope: 'read_user',
    input: z.object({}),
    handle: async ({ caller, window, deps: { emails, users } }) =>
      mapPage(await emails.list(await users.find(caller.userId), window), (rows) => rows.map(userEmailView)),
  }),

  route({
    method: 'GET',
    path: '/api/v4/user/emails/:email_id',
    access: 'user',
    scope: 'read_user',
    input: ownEmailParams,
    handle: async ({ caller, input, deps: { emails, users } }) =>
      userEmailView(await emails.get(await users.find(caller.userId), input.email_id)),
  }),

  route({
    method: 'POST',
    path: '/api/v4/user/emails',
    access: 'user',
    scope: 'api',
    input: addOwnEmailParams,
    status: 201,
    handle: async ({ caller, input, deps: { emails, users } }) =>
      userEmailView(await emails.add(caller, await users.find(caller.userId), { email: input.email })),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/user/emails/:email_id',
    access: 'user',
    scope: 'api',
    input: ownEmailParams,
    status: 204,
    handle: async ({ caller, input, deps: { emails, users } }) => {
      await emails.remove(caller, await users.find(caller.userId), input.email_id);
    },
  }),

  route.list({
    path: '/api/v4/users/:id/emails',
    access: 'administrator',
    scope: 'read_user',
    input: userEmailsParams,
    handle: async ({ input, window, deps: { emails, users } }) =>
      mapPage(await emails.list(await users.find(input.id), window), (rows) => rows.map(userEmailView)),
  }),

  route({
    method: 'POST',
    path: '/api/v4/users/:id/emails',
    access: 'administrator',
    scope: 'api',
    input: addUserEmailParams,
    status: 201,
    handle: async ({ caller, input, deps: { emails, users } }) =>
      userEmailView(await emails.add(caller, await users.find(input.id), input)),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/users/:id/emails/:email_id',
    access: 'administrator',
    scope: 'api',
    input: userEmailParams,
    status: 204,
    handle: async ({ caller, input, deps: { emails, users } }) => {
      await emails.remove(caller, await users.find(input.id), input.email_id);
    },
  }),
];
