import type { EventEnvelope } from '@platform/events';
import { NotFoundError } from '@platform/errors';
import type { AuditEvent } from './audit-event.entity.ts';
import type { AuditEventFilter, AuditEventKeyset, AuditEventOrder, AuditEventStore } from './audit-events-store.ts';
import { auditEventFor } from './audit-event-translation.ts';

export class AuditEventsService {
  readonly #store: AuditEventStore;

  constructor(options: { store: AuditEventStore }) {
    this.#store = options.store;
  }

  /** Records the audit event a domain event stands for, if any. Called once per event id. */
  async recordFrom(event: EventEnvelope): Promise<void> {
    const auditEvent = auditEventFor(event);
    if (auditEvent) await this.#store.insert(auditEvent);
  }

  list(filter: AuditEventFilter, order: AuditEventOrder, page: { offset: number; limit: number }) {
    return this.#store.list(filter, order, page);
  }

  listAfter(filter: AuditEventFilter, keyset: AuditEventKeyset) {
    return this.#store.listAfter(filter, keyset);
  }

  async get(id: number): Promise<AuditEvent> {
    const event = await this.#store.findById(id);
    if (!event) throw new NotFoundError('Audit Event');
    return event;
  }
}
