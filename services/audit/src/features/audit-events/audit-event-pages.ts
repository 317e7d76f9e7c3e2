import type { ListContext, ListResult } from '@platform/http';
import type { AuditEventsService } from './audit-events-service.ts';
import type { AuditEventFilter } from './audit-events-store.ts';
import { auditEventView } from './audit-events-views.ts';

/**
 * Newest first unless `sort=asc`; `order_by=id` orders by id alone, as keyset pages
 * (`pagination=keyset`) always do.
 */
export const AUDIT_EVENT_ORDER = { by: ['created_at', 'id'], default: 'created_at', sort: 'desc' } as const;

type AuditEventOrder = (typeof AUDIT_EVENT_ORDER.by)[number];

/**
 * A page of audit events as the request asks: an offset page in its order, or with
 * `pagination=keyset` a keyset page ordered by id, as GitLab serves them.
 */
export async function auditEventPage(
  list: Pick<ListContext<unknown, never, unknown, AuditEventOrder>, 'window' | 'order' | 'keyset'>,
  auditEvents: AuditEventsService,
  filter: AuditEventFilter,
): Promise<ListResult<{ id: number }>> {
  if (list.keyset) {
    const result = await auditEvents.listAfter(filter, list.keyset);
    return { items: result.items.map(auditEventView), hasNext: result.hasMore };
  }
  const result = await auditEvents.list(filter, list.order, list.window);
  return { ...result, items: result.items.map(auditEventView) };
}
