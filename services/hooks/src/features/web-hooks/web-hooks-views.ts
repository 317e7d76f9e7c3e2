import { alertStatus } from '../core/auto-disabling.ts';
import { GROUP_HOOK_FLAGS, PROJECT_HOOK_FLAGS, type WebHook, type WebHookLog } from '../core/web-hook.entity.ts';

/** GitLab's `Hook` entity: the token is never shown; URL variables and custom headers by name only. */
function hookView(hook: WebHook, now: Date) {
  return {
    id: hook.id,
    url: hook.url,
    name: hook.name,
    description: hook.description,
    created_at: hook.createdAt.toISOString(),
    push_events: hook.triggers.push_events,
    tag_push_events: hook.triggers.tag_push_events,
    merge_requests_events: hook.triggers.merge_requests_events,
    repository_update_events: hook.triggers.repository_update_events,
    enable_ssl_verification: hook.enableSslVerification,
    alert_status: alertStatus(hook.type, hook, now),
    disabled_until: hook.disabledUntil?.toISOString() ?? null,
    url_variables: Object.keys(hook.urlVariables).map((key) => ({ key })),
    push_events_branch_filter: hook.pushEventsBranchFilter,
    branch_filter_strategy: hook.branchFilterStrategy,
    custom_webhook_template: null,
    custom_headers: Object.keys(hook.customHeaders).map((key) => ({ key })),
  };
}

function flagsOf(hook: WebHook, flags: readonly (keyof WebHook['triggers'])[]) {
  return Object.fromEntries(flags.map((flag) => [flag, hook.triggers[flag]]));
}

export function projectHookView(hook: WebHook, now = new Date()) {
  return { ...hookView(hook, now), project_id: hook.projectId, ...flagsOf(hook, PROJECT_HOOK_FLAGS) };
}

export function groupHookView(hook: WebHook, now = new Date()) {
  return { ...hookView(hook, now), group_id: hook.groupId, ...flagsOf(hook, GROUP_HOOK_FLAGS) };
}

export function systemHookView(hook: WebHook, now = new Date()) {
  return { ...hookView(hook, now), organization_id: 1 };
}

/** GitLab's `WebHookLog` entity. */
export function hookLogView(log: WebHookLog) {
  return {
    id: log.id,
    url: log.url,
    trigger: log.trigger,
    request_headers: log.requestHeaders,
    request_data: log.requestData,
    response_headers: log.responseHeaders,
    response_body: log.responseBody,
    execution_duration: log.executionDuration,
    response_status: log.responseStatus,
    created_at: log.createdAt.toISOString(),
  };
}
