import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { HookDeliveries } from '../core/hook-deliveries.ts';
import type { PgHookStore } from '../core/hook-store.ts';
import { webHooksRoutes, type TestSamples } from './web-hooks-routes.ts';
import { WebHooksService } from './web-hooks-service.ts';

/** The hooks API: project hooks (maintainers), group hooks (owners), system hooks (administrators). */
export function createWebHooksFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  store: PgHookStore;
  deliveries: HookDeliveries;
  settings: ApplicationSettingsSource;
  samples: TestSamples;
}): Feature {
  const hooks = new WebHooksService({ store: deps.store, deliveries: deps.deliveries, settings: deps.settings, em: deps.em });
  return { routes: [createRouter(webHooksRoutes, { access: deps.access, hooks, samples: deps.samples })] };
}
