import { z } from 'zod';
import { params } from '@platform/http';
import { ALERT_STATUSES, INCIDENT_STATES } from './alert.entity.ts';

export const projectParams = z.object({ id: params.idOrPath() });

export const alertListQuery = projectParams.extend({
  /** One status, or several as `status[]=triggered&status[]=acknowledged`. */
  status: z.union([z.enum(ALERT_STATUSES), z.array(z.enum(ALERT_STATUSES)).max(4)]).optional(),
  search: z.string().max(255).optional(),
});

export const alertParams = projectParams.extend({ alert_iid: params.integer().pipe(z.number().positive()) });

export const updateAlertInput = alertParams.extend({ status: z.enum(ALERT_STATUSES) });

export const incidentListQuery = projectParams.extend({ state: z.enum(INCIDENT_STATES).optional() });

/** GitLab's issue list as far as incidents answer it: only `issue_type=incident`, `state` opened, closed or all. */
export const projectIncidentIssuesQuery = projectParams.extend({
  issue_type: z.literal('incident'),
  state: z.enum([...INCIDENT_STATES, 'all']).optional(),
});
