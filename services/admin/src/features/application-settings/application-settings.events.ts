import { adminEvents } from '@platform/admin-client';
import type { OutgoingEvent } from '@platform/events';
import type { ApplicationSettings } from '@platform/proto/admin/v1/settings';
import { isSecret, type SettingName, type SettingValues } from './application-settings-catalogue.ts';
import { SETTINGS_ID } from './application-settings-store.ts';

const int = (value: unknown): number => (typeof value === 'number' ? value : 0);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The settings other services act on, as they read them over gRPC and in every change event. */
export function sharedSettings(values: SettingValues, revision: number): ApplicationSettings {
  return {
    revision,
    signupEnabled: values.signup_enabled === true,
    requireAdminApprovalAfterUserSignup: values.require_admin_approval_after_user_signup === true,
    defaultProjectVisibility: str(values.default_project_visibility),
    defaultGroupVisibility: str(values.default_group_visibility),
    defaultSnippetVisibility: str(values.default_snippet_visibility),
    restrictedVisibilityLevels: (values.restricted_visibility_levels as string[] | undefined) ?? [],
    defaultProjectsLimit: int(values.default_projects_limit),
    rsaKeyRestriction: int(values.rsa_key_restriction),
    dsaKeyRestriction: int(values.dsa_key_restriction),
    ecdsaKeyRestriction: int(values.ecdsa_key_restriction),
    ed25519KeyRestriction: int(values.ed25519_key_restriction),
    maxImportSize: int(values.max_import_size),
    issuesCreateLimit: int(values.issues_create_limit),
    deletionAdjournedPeriod: int(values.deletion_adjourned_period),
    repositoryStoragesWeighted: (values.repository_storages_weighted as Record<string, number> | undefined) ?? {},
    defaultBranchProtection: int(values.default_branch_protection),
    defaultProjectCreation: int(values.default_project_creation),
    allowLocalRequestsFromWebHooksAndServices: values.allow_local_requests_from_web_hooks_and_services === true,
    allowLocalRequestsFromSystemHooks: values.allow_local_requests_from_system_hooks === true,
    outboundLocalRequestsWhitelist: (values.outbound_local_requests_whitelist as string[] | undefined) ?? [],
    dnsRebindingProtectionEnabled: values.dns_rebinding_protection_enabled === true,
    diffMaxPatchBytes: int(values.diff_max_patch_bytes),
  };
}

/** One `admin.application_setting.changed` per changed setting; a secret's values stay out. */
export function settingChangedEvents(options: {
  changes: Array<{ name: SettingName; from: unknown; to: unknown }>;
  after: SettingValues;
  revision: number;
}): OutgoingEvent[] {
  const settings = sharedSettings(options.after, options.revision);
  return options.changes.map(({ name, from, to }) => {
    const secret = isSecret(name);
    return adminEvents.applicationSettingChanged.event({
      aggregateId: SETTINGS_ID,
      data: {
        setting: name,
        from: secret ? '' : JSON.stringify(from ?? null),
        to: secret ? '' : JSON.stringify(to ?? null),
        secret,
        settings,
      },
    });
  });
}
