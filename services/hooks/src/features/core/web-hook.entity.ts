import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const HOOK_TYPES = ['ProjectHook', 'GroupHook', 'SystemHook'] as const;
export type HookType = (typeof HOOK_TYPES)[number];

export const BRANCH_FILTER_STRATEGIES = ['wildcard', 'regex', 'all_branches'] as const;
export type BranchFilterStrategy = (typeof BRANCH_FILTER_STRATEGIES)[number];

/** The trigger flags a project hook takes, as GitLab's API declares them. */
export const PROJECT_HOOK_FLAGS = [
  'push_events',
  'tag_push_events',
  'merge_requests_events',
  'note_events',
  'confidential_note_events',
  'issues_events',
  'confidential_issues_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'feature_flag_events',
  'releases_events',
  'milestone_events',
  'emoji_events',
  'resource_access_token_events',
] as const;
/** A group hook's: a project hook's and the group's own events. */
export const GROUP_HOOK_FLAGS = [...PROJECT_HOOK_FLAGS, 'member_events', 'project_events', 'subgroup_events'] as const;
/** A system hook's (which gets its system events whatever they say). */
export const SYSTEM_HOOK_FLAGS = ['push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events'] as const;

/** GitLab's trigger flags, each once: which events a hook is sent. */
export const TRIGGER_FLAGS = [...GROUP_HOOK_FLAGS, 'repository_update_events'] as const;
export type TriggerFlag = (typeof TRIGGER_FLAGS)[number];
export type TriggerFlags = Record<TriggerFlag, boolean>;

/**
 * A webhook: a project's, a group's (sent the events of the group's projects) or the instance's
 * (a system hook). `token` is sent as `X-Gitlab-Token` and never shown back.
 */
export const WebHook = defineEntity({
  name: 'WebHook',
  tableName: 'web_hooks',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    type: p.enum(HOOK_TYPES),
    projectId: p.bigint('number').nullable(),
    groupId: p.bigint('number').nullable(),
    url: p.text(),
    name: p.text(),
    description: p.text(),
    token: p.text().nullable(),
    triggers: p.json<TriggerFlags>(),
    pushEventsBranchFilter: p.text(),
    branchFilterStrategy: p.enum(BRANCH_FILTER_STRATEGIES),
    enableSslVerification: p.boolean(),
    /** Values for `{name}` placeholders of the URL, never shown back. */
    urlVariables: p.json<Record<string, string>>(),
    /** Headers sent with every delivery; their values are never shown back. */
    customHeaders: p.json<Record<string, string>>(),
    /** Consecutive failed deliveries: what auto-disabling counts. */
    recentFailures: p.integer(),
    disabledUntil: p.datetime().nullable(),
    /** The job sending the hook's deliveries, one at a time and in order, and until when it may (its lease). */
    deliveringBy: p.uuid().nullable(),
    deliveringUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type WebHook = InferEntity<typeof WebHook>;

export const DELIVERY_STATES = ['pending', 'delivered'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * One delivery of an event to a hook (GitLab's web hook log): `pending` until it was sent, then
 * what was sent and what the receiver answered. `eventUuid` names the domain event (the same for
 * every hook it went to, and again when sent twice); `idempotencyKey` names this delivery and is
 * sent again by a resend.
 */
export const WebHookLog = defineEntity({
  name: 'WebHookLog',
  tableName: 'web_hook_logs',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    webHookId: p.bigint('number'),
    /** GitLab's hook name: `push_hooks`, `merge_request_hooks`, `system_hooks`... */
    trigger: p.text(),
    eventUuid: p.uuid(),
    idempotencyKey: p.uuid(),
    url: p.text(),
    requestHeaders: p.json<Record<string, string>>(),
    requestData: p.json<Record<string, unknown>>(),
    responseHeaders: p.json<Record<string, string>>(),
    responseBody: p.text(),
    /** The HTTP status, or `internal error` when no answer came (refused, timed out, blocked). */
    responseStatus: p.text(),
    internalErrorMessage: p.text().nullable(),
    /** Seconds. */
    executionDuration: p.double(),
    state: p.enum(DELIVERY_STATES),
    createdAt: p.datetime(),
  },
});
export type WebHookLog = InferEntity<typeof WebHookLog>;

export const coreEntities = [WebHook, WebHookLog];
