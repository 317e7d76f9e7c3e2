/**
 * Keeps the gateway's token cache honest: identity's change events (a user blocked, unblocked,
 * demoted or otherwise updated, deleted; a token revoked) drop that user's cached answers the
 * moment they arrive, on every gateway replica.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { createKafka, startEventFeed, type EventEnvelope, type EventFeed } from '@platform/events';
import { IDENTITY_TOPIC } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import type { Authenticator } from './authenticator.ts';

const AUTHORIZATION_EVENTS = /^identity\.(user|personal_access_token)\./;

/** The users whose authorization an event may have changed. */
export function affectedUserIds(event: EventEnvelope): number[] {
  if (!AUTHORIZATION_EVENTS.test(event.type)) return [];
  const data = event.data as { user?: { id?: unknown }; userId?: unknown; user_id?: unknown };
  const ids = [data.user?.id, data.userId, data.user_id, event.type.startsWith('identity.user.') ? Number(event.aggregateId) : undefined];
  return [...new Set(ids.filter((id): id is number => typeof id === 'number' && Number.isInteger(id)))];
}

export function startAuthInvalidation(options: {
  brokers: string[];
  topicPrefix: string;
  authenticator: Authenticator;
  logger: Logger;
}): Promise<EventFeed> {
  return startEventFeed({
    kafka: createKafka({ brokers: options.brokers, clientId: 'gateway', logger: options.logger }),
    topics: [IDENTITY_TOPIC],
    topicPrefix: options.topicPrefix,
    groupId: `gateway.auth-invalidation.${hostname()}.${process.pid}.${randomBytes(4).toString('hex')}`,
    logger: options.logger,
    onEvent: (event) => {
      for (const userId of affectedUserIds(event)) options.authenticator.forgetUser(userId);
    },
  });
}
