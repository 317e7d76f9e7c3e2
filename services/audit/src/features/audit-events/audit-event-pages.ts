import { keysetHeaders, keysetOf, pageParams, reply, type PageQuery, type RouteContext, type RouteReply } from '@platform/http';
import type { Caller } from '@platform/auth';
import type { AuditEventsService } from './audit-events-service.ts';
import type { AuditEventFilter } from './audit-events-store.ts';
import { auditEventView } from './audit-events-views.ts';

/** The list parameters of `audit-events.schemas.ts`: pages, order and GitLab's keyset pagination. */
export interface AuditEventListQuery extends PageQuery {
  pagination?: 'offset' | 'keyset' | undefined;
  cursor?: string | undefined;
  order_by?: 'created_at' | 'id' | undefined;
  sort?: 'asc' | 'desc' | undefined;
}

/**
 * A list of audit events as the request asks: offset pages (newest first unless `sort=asc`, by id
 * alone with `order_by=id`), or with `pagination=keyset` keyset pages ordered by id, each linked to
 * the next by `Link: <...>; rel="next"`, as GitLab serves them.
 */
export async function auditEventList(
  context: Pick<RouteContext<AuditEventListQuery, Caller, unknown>, 'input' | 'request' | 'page'>,
  auditEvents: AuditEventsService,
  filter: AuditEventFilter,
): Promise<RouteReply> {
  const { input, request } = context;
  const window = pageParams(input);
  const sort = input.sort ?? 'desc';
  const keyset = keysetOf(input);
  if (keyset) {
    const result = await auditEvents.listAfter(filter, { ...keyset, sort, limit: window.perPage });
    return reply({
      headers: keysetHeaders(request, { perPage: window.perPage, items: result.items, hasMore: result.hasMore }),
      body: result.items.map(auditEventView),
    });
  }
  const result = await auditEvents.list(
    filter,
    { by: input.order_by ?? 'created_at', sort },
    { offset: window.offset, limit: window.perPage },
  );
  return context.page(window, { ...result, items: result.items.map(auditEventView) });
}
