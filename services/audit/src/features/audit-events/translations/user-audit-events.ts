import { UserCreated } from '@platform/proto/identity/v1/events';
import { auditEventBase, type AuditTranslation } from './translation-helpers.ts';

/** Audit events for identity's user events, by event type. */
export const userAuditEvents: Record<string, AuditTranslation> = {
  'identity.user.created': (event) => {
    const user = UserCreated.fromJSON(event.data).user;
    if (!user) return undefined;
    const base = auditEventBase(event);
    return {
      ...base,
      entityId: user.id,
      entityType: 'User',
      eventName: 'user_created',
      details: {
        ...base.details,
        add: 'user',
        target_id: user.id,
        target_type: 'User',
        target_details: user.username,
        entity_path: user.username,
      },
    };
  },
};
