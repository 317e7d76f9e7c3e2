import type { Alert, Incident } from './alert.entity.ts';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** An alert as the API shows it, with its incident's reference. */
export function alertView(alert: Alert, incident: Incident | null) {
  return {
    id: alert.id,
    iid: alert.iid,
    title: alert.title,
    description: alert.description,
    severity: alert.severity,
    status: alert.status,
    events: alert.events,
    started_at: iso(alert.startedAt),
    ended_at: iso(alert.endedAt),
    fingerprint: alert.fingerprint,
    monitoring_tool: alert.monitoringTool,
    service: alert.service,
    hosts: alert.hosts,
    environment: alert.environment,
    payload: alert.payload,
    incident: incident ? { iid: incident.iid, title: incident.title, state: incident.state } : null,
    created_at: iso(alert.createdAt),
    updated_at: iso(alert.updatedAt),
  };
}

/**
 * An incident as GitLab shows issues of type `incident`. Its author is the alert bot, as GitLab
 * opens incidents for alerts on nobody's behalf; it has no labels, milestone or assignees.
 */
export function incidentView(incident: Incident, options: { baseUrl: string; projectWebUrl: string }) {
  return {
    id: incident.id,
    iid: incident.iid,
    project_id: incident.projectId,
    title: incident.title,
    description: incident.description,
    state: incident.state,
    created_at: iso(incident.createdAt),
    updated_at: iso(incident.updatedAt),
    closed_at: iso(incident.closedAt),
    closed_by: null,
    labels: [],
    milestone: null,
    assignees: [],
    assignee: null,
    author: {
      id: 0,
      username: 'alert-bot',
      name: 'Alert Bot',
      state: 'active',
      avatar_url: `${options.baseUrl}/assets/no_avatar.png`,
      web_url: `${options.baseUrl}/alert-bot`,
    },
    type: 'INCIDENT',
    issue_type: 'incident',
    severity: incident.severity.toUpperCase(),
    user_notes_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: null,
    confidential: false,
    discussion_locked: null,
    web_url: `${options.projectWebUrl}/-/issues/${incident.iid}`,
  };
}
