import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { EntityManager, Orm } from '@platform/db';
import type { Logger } from '@platform/logger';
import { handleJob, type Feature } from '@platform/service';
import { HookDeliveries, type DeliverySettings } from './hook-deliveries.ts';
import { createHookSender } from './hook-sender.ts';
import { PgHookStore } from './hook-store.ts';
import { deliveryJob } from './hooks.jobs.ts';
import { coreEntities } from './web-hook.entity.ts';

export { coreEntities };

export interface CoreFeature extends Feature {
  store: PgHookStore;
  deliveries: HookDeliveries;
}

/** The hooks, their deliveries and the job that sends them. */
export function createCoreFeature(deps: {
  orm: Orm;
  em: EntityManager;
  settings: ApplicationSettingsSource;
  delivery: DeliverySettings;
  logger: Logger;
}): CoreFeature {
  const store = new PgHookStore(deps.em);
  const deliveries = new HookDeliveries({
    orm: deps.orm,
    em: deps.em,
    store,
    settings: deps.settings,
    send: createHookSender(),
    delivery: deps.delivery,
    logger: deps.logger,
  });
  return { store, deliveries, jobs: [handleJob(deliveryJob, ({ logId }, { signal }) => deliveries.deliver(logId, signal))] };
}
