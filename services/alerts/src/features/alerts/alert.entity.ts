import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { SEVERITIES } from './alert-payload.ts';

export const ALERT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'ignored'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const INCIDENT_STATES = ['opened', 'closed'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

/** An alert of a project, opened by a payload and counting the payloads grouped into it. */
export const Alert = defineEntity({
  name: 'Alert',
  tableName: 'alerts',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    iid: p.integer(),
    /** The integration that received it; null once that integration was deleted or for a test alert's. */
    integrationId: p.bigint('number').nullable(),
    title: p.text(),
    description: p.text().nullable(),
    severity: p.enum(SEVERITIES),
    status: p.enum(ALERT_STATUSES),
    events: p.integer(),
    startedAt: p.datetime(),
    endedAt: p.datetime().nullable(),
    fingerprint: p.text(),
    monitoringTool: p.text().nullable(),
    service: p.text().nullable(),
    hosts: p.json<string[]>(),
    environment: p.text().nullable(),
    payload: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Alert = InferEntity<typeof Alert>;

/** The incident opened for a new alert (an issue of type `incident`), closed when the alert is resolved. */
export const Incident = defineEntity({
  name: 'Incident',
  tableName: 'incidents',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    iid: p.integer(),
    alertId: p.bigint('number'),
    title: p.text(),
    description: p.text().nullable(),
    severity: p.text(),
    state: p.enum(INCIDENT_STATES),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    closedAt: p.datetime().nullable(),
  },
});
export type Incident = InferEntity<typeof Incident>;

/** The last iid given out per project, for alerts and for incidents. */
export const ProjectIid = defineEntity({
  name: 'ProjectIid',
  tableName: 'project_iids',
  properties: {
    projectId: p.bigint('number').primary(),
    kind: p.enum(['alert', 'incident'] as const).primary(),
    lastIid: p.integer(),
  },
});

export const alertsEntities = [Alert, Incident, ProjectIid];
