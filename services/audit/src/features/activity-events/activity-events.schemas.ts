import { z } from 'zod';
import { params } from '@platform/http';
import { ACTIONS } from './activity-event.entity.ts';

/** The `target_type` filter's values and the class names GitLab stores them as. */
export const TARGET_TYPES = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
} as const;

/** `YYYY-MM-DD`, a day in UTC. */
const day = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'is invalid')
    .transform((value, context) => {
      const parsed = new Date(`${value}T00:00:00Z`);
      // Years PostgreSQL stores, with room for the day after (`after` starts there).
      const year = parsed.getUTCFullYear();
      if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value || year < 1 || year > 9998) {
        context.addIssue({ code: 'custom', message: 'is invalid' });
        return z.NEVER;
      }
      return parsed;
    });

const filters = {
  action: z.enum(ACTIONS).optional(),
  target_type: z.enum(Object.keys(TARGET_TYPES) as [keyof typeof TARGET_TYPES, ...Array<keyof typeof TARGET_TYPES>]).optional(),
  before: day().optional(),
  after: day().optional(),
};

/** `GET /events`; `scope=all` widens the list to everybody's events in the caller's projects. */
export const callerEventsQuery = z.object({ ...filters, scope: params.string().optional() });

/** `GET /users/:id/events`: `:id` is a user id or username. */
export const userEventsQuery = z.object({ id: params.string(), ...filters });

/** `GET /projects/:id/events`: `:id` is a project id or full path. */
export const projectEventsQuery = z.object({ id: params.idOrPath(), ...filters });

export type ActivityFilters = z.output<z.ZodObject<typeof filters>>;
