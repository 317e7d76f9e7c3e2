import { raw, type FilterQuery } from '@mikro-orm/core';
import { findPage, likePattern, type EntityManager, type Page, type PageWindow } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { Alert, Incident, type AlertStatus, type IncidentState } from './alert.entity.ts';

export type NewAlert = Omit<Alert, 'id' | 'iid' | 'createdAt' | 'updatedAt'>;
export type NewIncident = Omit<Incident, 'id' | 'iid' | 'createdAt' | 'updatedAt' | 'closedAt' | 'state'>;

export const ALERT_ORDERS = ['created_at', 'updated_at', 'started_at', 'ended_at', 'events', 'iid'] as const;
export type AlertOrder = (typeof ALERT_ORDERS)[number];

const ALERT_ORDER_COLUMNS = {
  created_at: 'createdAt',
  updated_at: 'updatedAt',
  started_at: 'startedAt',
  ended_at: 'endedAt',
  events: 'events',
  iid: 'iid',
} as const;

export interface AlertFilter {
  statuses?: AlertStatus[] | undefined;
  /** Part of the title, description, service, monitoring tool or a host, any case. */
  search?: string | undefined;
}

/** `%` and `_` match themselves in a search. */

export class PgAlertStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  list(
    projectId: number,
    filter: AlertFilter,
    options: { orderBy: AlertOrder; sort: 'asc' | 'desc'; window: PageWindow },
  ): Promise<Page<Alert>> {
    const where: FilterQuery<Alert> = { projectId };
    if (filter.statuses) where.status = { $in: filter.statuses };
    if (filter.search) {
      const pattern = likePattern(filter.search);
      where.$or = [
        { title: { $ilike: pattern } },
        { description: { $ilike: pattern } },
        { service: { $ilike: pattern } },
        { monitoringTool: { $ilike: pattern } },
        // hosts is a JSON array of strings: matched as its text.
        { [raw('hosts::text')]: { $ilike: pattern } },
      ];
    }
    return findPage(this.#em, Alert, where, {
      orderBy: { [ALERT_ORDER_COLUMNS[options.orderBy]]: options.sort, id: options.sort },
      window: options.window,
    });
  }

  find(projectId: number, iid: number): Promise<Alert | null> {
    return this.#em.findOne(Alert, { projectId, iid });
  }

  async incidentsOf(alertIds: number[]): Promise<Map<number, Incident>> {
    if (alertIds.length === 0) return new Map();
    const incidents = await this.#em.find(Incident, { alertId: { $in: alertIds } });
    return new Map(incidents.map((incident) => [incident.alertId, incident]));
  }

  listIncidents(projectId: number, filter: { state?: IncidentState | undefined }, window: PageWindow): Promise<Page<Incident>> {
    const where: FilterQuery<Incident> = { projectId };
    if (filter.state) where.state = filter.state;
    return findPage(this.#em, Incident, where, { orderBy: { createdAt: 'desc', id: 'desc' }, window });
  }

  /**
   * Runs `change` in the caller's transaction; with `lock`, holding the lock of that key (a
   * project's fingerprint), so that two occurrences of one alert are not both taken for new ones.
   * Records the events `change` returns.
   */
  async change<Result>(options: {
    lock?: string;
    actor: EventActor | null;
    change: (tx: AlertTransaction) => Promise<{ result: Result; events: OutgoingEvent[] }>;
  }): Promise<Result> {
    const em = this.#em;
    if (options.lock) await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [options.lock]);
    const { result, events } = await options.change(new AlertTransaction(em));
    for (const event of events) recordEvent(em, { ...event, actor: options.actor });
    await em.flush();
    return result;
  }
}

/** What a change to alerts and incidents reads and writes, in one transaction. */
export class AlertTransaction {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** The project's alert of that fingerprint that is not resolved yet, if any. */
  openAlert(projectId: number, fingerprint: string): Promise<Alert | null> {
    return this.#em.findOne(Alert, { projectId, fingerprint, status: { $ne: 'resolved' } }, { orderBy: { id: 'desc' } });
  }

  find(projectId: number, iid: number): Promise<Alert | null> {
    return this.#em.findOne(Alert, { projectId, iid });
  }

  incidentOf(alertId: number): Promise<Incident | null> {
    return this.#em.findOne(Incident, { alertId });
  }

  async insertAlert(alert: NewAlert): Promise<Alert> {
    const now = new Date();
    const iid = await this.#nextIid(alert.projectId, 'alert');
    const created = this.#em.create(Alert, { ...alert, iid, createdAt: now, updatedAt: now });
    await this.#em.flush();
    return created;
  }

  async insertIncident(incident: NewIncident): Promise<Incident> {
    const now = new Date();
    const iid = await this.#nextIid(incident.projectId, 'incident');
    const created = this.#em.create(Incident, { ...incident, iid, state: 'opened', createdAt: now, updatedAt: now, closedAt: null });
    await this.#em.flush();
    return created;
  }

  /** Applies `changes` to an alert or incident this transaction read. */
  async update<Entity extends Alert | Incident>(entity: Entity, changes: Partial<Entity>): Promise<Entity> {
    this.#em.assign(entity, { ...changes, updatedAt: new Date() } as never);
    await this.#em.flush();
    return entity;
  }

  /** The next iid of the project's alerts or incidents; the counter's row stays locked until commit. */
  async #nextIid(projectId: number, kind: 'alert' | 'incident'): Promise<number> {
    const [row] = await this.#em.execute<Array<{ last_iid: number }>>(
      `insert into project_iids (project_id, kind, last_iid) values (?, ?, 1)
       on conflict (project_id, kind) do update set last_iid = project_iids.last_iid + 1
       returning last_iid`,
      [projectId, kind],
    );
    if (!row) throw new Error('the iid counter returned no row');
    return row.last_iid;
  }
}
