import { z } from 'zod';
import { integerList, params } from '@platform/http';
import { clearableDateParam } from '../access/namespace.schemas.ts';
import type { SourceType } from './member.entity.ts';
import { validAccessLevels } from './members-service.ts';

/** The access levels a member of this kind of source may be given: Owner is for groups only. */
export function memberAccessLevelParam(type: SourceType) {
  return params.integer().refine((value) => validAccessLevels(type).includes(value), { message: 'does not have a valid value' });
}

export const memberListQuery = z.object({
  id: params.idOrPath(),
  query: z.string().max(255).optional(),
  user_ids: integerList().optional(),
  skip_users: integerList().optional(),
  show_seat_info: params.boolean().optional(),
});

export const memberParams = z.object({ id: params.idOrPath(), user_id: params.integer() });

export function addMemberParams(type: SourceType) {
  return z
    .object({
      id: params.idOrPath(),
      user_id: params.integer().optional(),
      username: z.string().max(255).optional(),
      access_level: memberAccessLevelParam(type),
      expires_at: clearableDateParam().optional(),
    })
    .superRefine((input, context) => {
      if ((input.user_id === undefined) === (input.username === undefined)) {
        context.addIssue({ code: 'custom', path: ['user_id, username'], message: 'are missing, exactly one parameter must be provided' });
      }
    });
}

export function updateMemberParams(type: SourceType) {
  return z.object({
    id: params.idOrPath(),
    user_id: params.integer(),
    access_level: memberAccessLevelParam(type),
    expires_at: clearableDateParam().optional(),
  });
}
