import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { timeTrackingRoutes, type TimeTrackingRouteDeps } from './time-tracking-routes.ts';

/** Time estimates and time spent on merge requests. */
export function createTimeTrackingFeature(deps: TimeTrackingRouteDeps): Feature {
  return { routes: [createRouter(timeTrackingRoutes, deps)] };
}
