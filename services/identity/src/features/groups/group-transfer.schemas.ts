import { z } from 'zod';
import { params } from '@platform/http';

/** `group_id` left out, or empty as forms send it, promotes the group to the top level. */
export const transferGroupParams = z.object({
  id: params.idOrPath(),
  group_id: z.preprocess((value) => (value === '' || value === null ? undefined : value), params.integer().optional()),
});

export const transferLocationsQuery = z.object({
  id: params.idOrPath(),
  search: z.string().max(255).optional(),
});
export type TransferLocationsQuery = z.output<typeof transferLocationsQuery>;

export const transferProjectIntoGroupParams = z.object({ id: params.idOrPath(), project_id: params.idOrPath() });
