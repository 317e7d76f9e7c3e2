import { z } from 'zod';
import { integerList, params } from '@platform/http';

/** GitLab's access levels, `Gitlab::Access.all_values` (no access and minimal access among them). */
const ALL_ACCESS_LEVELS = [0, 5, 10, 15, 20, 30, 40, 50];

/** `GET /projects/:id/groups`. */
export const projectGroupsQuery = z.object({
  id: params.idOrPath(),
  search: z.string().max(255).optional(),
  skip_groups: integerList().optional(),
  with_shared: params.boolean().optional(),
  shared_visible_only: params.boolean().optional(),
  shared_min_access_level: params
    .integer()
    .refine((value) => ALL_ACCESS_LEVELS.includes(value), { message: 'does not have a valid value' })
    .optional(),
});
export type ProjectGroupsQuery = z.output<typeof projectGroupsQuery>;
