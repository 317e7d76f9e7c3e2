import type { EntityManager } from '@platform/db';
import { onEvent, type EventHandler } from '@platform/events';
import { identityEvents, type IdentityAccess } from '@platform/identity-client';
import { createRouter } from '@platform/http';
import type { Logger } from '@platform/logger';
import type { UserSnapshot } from '@platform/proto/identity/v1/events';
import type { Feature } from '@platform/service';
import { ActivityEvent } from './activity-event.entity.ts';
import { ActivityUser } from './activity-user.entity.ts';
import { PgActivityEventStore } from './activity-events-store.ts';
import { ActivityEventsService } from './activity-events-service.ts';
import { activityEventsRoutes } from './activity-events-routes.ts';
import { activityTranslations } from './activity-translations.ts';
import { activityRetention } from './activity-retention.ts';
import { ProjectVisibility } from './project-visibility.ts';

export const activityEventsEntities = [ActivityEvent, ActivityUser];

function activityUser(user: UserSnapshot): ActivityUser {
  return { id: user.id, username: user.username, name: user.name, state: user.state, privateProfile: user.privateProfile };
}

/**
 * Activity events (GitLab's `/events`): recorded from identity's and review's events, listed to
 * callers who may see each event's project. Users are remembered from identity's user events.
 */
export function createActivityEventsFeature(deps: {
  em: EntityManager;
  logger: Logger;
  access: IdentityAccess;
  externalUrl: string;
  accessCacheTtlMs: number;
  retentionIntervalMs: number;
}): Feature {
  const store = new PgActivityEventStore(deps.em);
  const activityEvents = new ActivityEventsService({
    store,
    access: deps.access,
    visibility: new ProjectVisibility({ access: deps.access, ttlMs: deps.accessCacheTtlMs }),
    translations: activityTranslations,
  });
  const remember = (user: UserSnapshot | undefined) => (user ? activityEvents.rememberUser(activityUser(user)) : Promise.resolve());
  const consumes: EventHandler[] = [
    ...activityTranslations.map(({ type, topic }) => ({ type, topic, handle: activityEvents.recordFrom.bind(activityEvents) })),
    onEvent(identityEvents.userCreated, (data) => remember(data.user)),
    onEvent(identityEvents.userUpdated, (data) => remember(data.user)),
    onEvent(identityEvents.userBlocked, (data) => remember(data.user)),
    onEvent(identityEvents.userUnblocked, (data) => remember(data.user)),
    onEvent(identityEvents.userDeleted, async (data) => {
      if (data.user) await activityEvents.forgetUser({ id: data.user.id, hardDelete: data.hardDelete, ghostUserId: data.ghostUserId });
    }),
    onEvent(identityEvents.projectDeleted, async (data) => {
      if (data.project) await activityEvents.forgetProject(data.project.id);
    }),
  ];
  return {
    routes: [createRouter(activityEventsRoutes, { activityEvents, externalUrl: deps.externalUrl })],
    consumes,
    schedules: [activityRetention({ store, logger: deps.logger, intervalMs: deps.retentionIntervalMs })],
  };
}
