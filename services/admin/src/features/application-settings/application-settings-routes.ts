import { z } from 'zod';
import { actorOf } from '@platform/auth';
import { routesOf } from '@platform/http';
import type { ApplicationSettingsService } from './application-settings-service.ts';
import { settingsView } from './application-settings-views.ts';
import { settingsUpdateParams } from './application-settings.schemas.ts';

export interface ApplicationSettingsRouteDeps {
  settings: ApplicationSettingsService;
}

const route = routesOf<ApplicationSettingsRouteDeps>('admin');

/** GitLab's Application settings API, for administrators. */
export const applicationSettingsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/application/settings',
    access: 'administrator',
    scope: 'read_api',
    input: z.object({}),
    handle: async ({ deps }) => settingsView(await deps.settings.current()),
  }),

  route({
    method: 'PUT',
    path: '/api/v4/application/settings',
    access: 'administrator',
    scope: 'api',
    input: settingsUpdateParams,
    handle: async ({ caller, input, deps }) => settingsView(await deps.settings.update({ input, actor: actorOf(caller) })),
  }),
];
