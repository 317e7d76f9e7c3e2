import { z } from 'zod';
import { params } from '@platform/http';
import {
  BRANCH_FILTER_STRATEGIES,
  GROUP_HOOK_FLAGS,
  PROJECT_HOOK_FLAGS,
  SYSTEM_HOOK_FLAGS,
  type TriggerFlag,
} from '../core/web-hook.entity.ts';

const keyValueList = z.array(z.object({ key: z.string().min(1).max(255), value: z.string().max(2048) })).max(20);

const hookProperties = {
  url: z.string().min(1).max(2048),
  name: params.string().optional(),
  description: params.string(2048).optional(),
  token: params.string().optional(),
  enable_ssl_verification: params.boolean().optional(),
  push_events_branch_filter: params.string(5000).optional(),
  branch_filter_strategy: z.enum(BRANCH_FILTER_STRATEGIES).optional(),
  url_variables: keyValueList.optional(),
  custom_headers: keyValueList.optional(),
};

function flagsShape<const Flags extends readonly TriggerFlag[]>(flags: Flags) {
  return Object.fromEntries(flags.map((flag) => [flag, params.boolean().optional()])) as {
    [Flag in Flags[number]]: z.ZodOptional<ReturnType<typeof params.boolean>>;
  };
}

const hookId = params.integer().pipe(z.number().positive());

export const projectParams = z.object({ id: params.idOrPath() });
export const groupParams = z.object({ id: params.idOrPath() });
export const projectHookParams = projectParams.extend({ hook_id: hookId });
export const groupHookParams = groupParams.extend({ hook_id: hookId });
export const systemHookParams = z.object({ hook_id: hookId });

export const createProjectHookInput = projectParams.extend({ ...hookProperties, ...flagsShape(PROJECT_HOOK_FLAGS) });
export const updateProjectHookInput = projectHookParams.extend({
  ...hookProperties,
  url: hookProperties.url.optional(),
  ...flagsShape(PROJECT_HOOK_FLAGS),
});
export const createGroupHookInput = groupParams.extend({ ...hookProperties, ...flagsShape(GROUP_HOOK_FLAGS) });
export const updateGroupHookInput = groupHookParams.extend({
  ...hookProperties,
  url: hookProperties.url.optional(),
  ...flagsShape(GROUP_HOOK_FLAGS),
});
export const createSystemHookInput = z.object({ ...hookProperties, ...flagsShape(SYSTEM_HOOK_FLAGS) });
export const updateSystemHookInput = systemHookParams.extend({
  ...hookProperties,
  url: hookProperties.url.optional(),
  ...flagsShape(SYSTEM_HOOK_FLAGS),
});

/** The triggers a hook can be tested with (`POST .../hooks/:hook_id/test/:trigger`): a project hook's, for group hooks too. */
export const TEST_TRIGGERS = PROJECT_HOOK_FLAGS;

export const testProjectHookInput = projectHookParams.extend({ trigger: z.enum(TEST_TRIGGERS) });
export const testGroupHookInput = groupHookParams.extend({ trigger: z.enum(TEST_TRIGGERS) });

const STATUS_CATEGORIES = ['successful', 'client_failure', 'server_failure'] as const;
export const hookEventsInput = z.object({
  status: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.split(',').map((part) => part.trim()) : value),
      z.array(z.union([z.enum(STATUS_CATEGORIES), z.string().regex(/^[1-5]\d\d$/)])).max(100),
    )
    .optional(),
});
export const projectHookEventsInput = projectHookParams.extend(hookEventsInput.shape);
export const groupHookEventsInput = groupHookParams.extend(hookEventsInput.shape);

export const projectHookResendInput = projectHookParams.extend({ hook_log_id: hookId });
export const groupHookResendInput = groupHookParams.extend({ hook_log_id: hookId });

/** What a hook's change carries, whatever its kind. */
export type HookInput =
  | z.output<typeof createProjectHookInput>
  | z.output<typeof createGroupHookInput>
  | z.output<typeof createSystemHookInput>;
export type HookChange = Partial<HookInput>;
