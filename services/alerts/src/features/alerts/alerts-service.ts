import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import type { OutgoingEvent } from '@platform/events';
import { alertsEvents } from '@platform/alerts-client';
import type { EntityManager, Page, PageWindow } from '@platform/db';
import type { Alert, AlertStatus, Incident, IncidentState } from './alert.entity.ts';
import type { IncomingAlert } from './alert-payload.ts';
import type { AlertFilter, AlertOrder, AlertTransaction, PgAlertStore } from './alerts-store.ts';

/** What became of one incoming alert. */
export type IntakeOutcome = 'opened' | 'grouped' | 'resolved' | 'ignored';

/** An alert with its incident, as views show them. */
export interface AlertWithIncident {
  alert: Alert;
  incident: Incident | null;
}

/** Where incoming alerts come from: the integration that took them. */
export interface AlertSource {
  integrationId: number;
  type: 'http' | 'prometheus';
}

const alertRef = (alert: Alert) => ({ projectId: alert.projectId, alertId: alert.id, alertIid: alert.iid, title: alert.title });
const incidentRef = (incident: Incident, alert: Alert) => ({
  projectId: incident.projectId,
  incidentId: incident.id,
  incidentIid: incident.iid,
  alertIid: alert.iid,
  title: incident.title,
});

/**
 * Alerts of a project: opened by incoming payloads, grouped by fingerprint (paid tier), resolved
 * by `end_time` or by a user; each new alert opens an incident, which closes with the alert.
 */
export class AlertsService {
  readonly #em: EntityManager;
  readonly #store: PgAlertStore;
  readonly #grouping: boolean;

  constructor(options: { em: EntityManager; store: PgAlertStore; grouping: boolean }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#grouping = options.grouping;
  }

  /** Records incoming alerts, each in its own transaction; `caller` is who sent a test alert, if anyone. */
  async receive(options: {
    projectId: number;
    source: AlertSource;
    alerts: IncomingAlert[];
    caller?: AuthenticatedCaller;
  }): Promise<IntakeOutcome[]> {
    const outcomes: IntakeOutcome[] = [];
    for (const incoming of options.alerts) {
      outcomes.push(
        await this.#em.transactional(() =>
          this.#store.change({
            lock: `alerts:${options.projectId}:${incoming.fingerprint}`,
            actor: options.caller ? actorOf(options.caller) : null,
            change: (tx) => this.#receiveOne(tx, { projectId: options.projectId, source: options.source, incoming }),
          }),
        ),
      );
    }
    return outcomes;
  }

  async #receiveOne(
    tx: AlertTransaction,
    options: { projectId: number; source: AlertSource; incoming: IncomingAlert },
  ): Promise<{ result: IntakeOutcome; events: OutgoingEvent[] }> {
    const { incoming, projectId } = options;
    const open = await tx.openAlert(projectId, incoming.fingerprint);
    if (incoming.endedAt) {
      // An end time resolves the alert it matches; there is nothing to resolve without one.
      if (!open) return { result: 'ignored', events: [] };
      return { result: 'resolved', events: await this.#resolve(tx, open, incoming.endedAt) };
    }
    if (open && this.#grouping) {
      await tx.update(open, { events: open.events + 1 });
      return { result: 'grouped', events: [] };
    }
    const alert = await tx.insertAlert({
      projectId,
      integrationId: options.source.integrationId,
      title: incoming.title,
      description: incoming.description,
      severity: incoming.severity,
      status: 'triggered',
      events: 1,
      startedAt: incoming.startedAt,
      endedAt: null,
      fingerprint: incoming.fingerprint,
      monitoringTool: incoming.monitoringTool,
      service: incoming.service,
      hosts: incoming.hosts,
      environment: incoming.environment,
      payload: incoming.payload,
    });
    const incident = await tx.insertIncident({
      projectId,
      alertId: alert.id,
      title: alert.title,
      description: alert.description,
      severity: alert.severity,
    });
    const events = [
      alertsEvents.alertTriggered.event({
        aggregateId: projectId,
        data: {
          ...alertRef(alert),
          severity: alert.severity,
          fingerprint: alert.fingerprint,
          source: options.source.type,
          integrationId: options.source.integrationId,
        },
      }),
      alertsEvents.incidentOpened.event({ aggregateId: projectId, data: incidentRef(incident, alert) }),
    ];
    return { result: 'opened', events };
  }

  /** Resolves `alert` at `endedAt` and closes its incident. */
  async #resolve(tx: AlertTransaction, alert: Alert, endedAt: Date): Promise<OutgoingEvent[]> {
    await tx.update(alert, { status: 'resolved', endedAt });
    const events = [
      alertsEvents.alertResolved.event({ aggregateId: alert.projectId, data: { ...alertRef(alert), endedAt: endedAt.toISOString() } }),
    ];
    const incident = await tx.incidentOf(alert.id);
    if (incident && incident.state === 'opened') {
      await tx.update(incident, { state: 'closed', closedAt: endedAt });
      events.push(alertsEvents.incidentClosed.event({ aggregateId: alert.projectId, data: incidentRef(incident, alert) }));
    }
    return events;
  }

  async list(
    projectId: number,
    filter: AlertFilter,
    options: { orderBy: AlertOrder; sort: 'asc' | 'desc'; window: PageWindow },
  ): Promise<Page<AlertWithIncident>> {
    const page = await this.#store.list(projectId, filter, options);
    const incidents = await this.#store.incidentsOf(page.items.map((alert) => alert.id));
    return { ...page, items: page.items.map((alert) => ({ alert, incident: incidents.get(alert.id) ?? null })) };
  }

  async get(projectId: number, iid: number): Promise<AlertWithIncident> {
    const alert = await this.#store.find(projectId, iid);
    if (!alert) throw new NotFoundError('Alert');
    const incidents = await this.#store.incidentsOf([alert.id]);
    return { alert, incident: incidents.get(alert.id) ?? null };
  }

  /** A user's change of status; resolving closes the incident, reopening clears the end time. */
  async updateStatus(options: {
    projectId: number;
    iid: number;
    status: AlertStatus;
    caller: AuthenticatedCaller;
  }): Promise<AlertWithIncident> {
    return this.#em.transactional(() =>
      this.#store.change({
        actor: actorOf(options.caller),
        change: async (tx) => {
          const alert = await tx.find(options.projectId, options.iid);
          if (!alert) throw new NotFoundError('Alert');
          let events: OutgoingEvent[] = [];
          if (options.status === 'resolved' && alert.status !== 'resolved') events = await this.#resolve(tx, alert, new Date());
          else if (options.status !== alert.status) {
            await tx.update(alert, { status: options.status, ...(alert.status === 'resolved' ? { endedAt: null } : {}) });
          }
          return { result: { alert, incident: await tx.incidentOf(alert.id) }, events };
        },
      }),
    );
  }

  listIncidents(projectId: number, filter: { state?: IncidentState | undefined }, window: PageWindow): Promise<Page<Incident>> {
    return this.#store.listIncidents(projectId, filter, window);
  }
}
