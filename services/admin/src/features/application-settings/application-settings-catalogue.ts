/**
 * Every application setting the API knows: how its value is read and checked, and its default
 * (GitLab's). A setting never written answers its default. `secret` settings are written but
 * never answered, and their values never leave the service (events say only that they changed).
 */
import { z } from 'zod';
import {
  addressList,
  decimalIn,
  durationText,
  emailText,
  flag,
  integerIn,
  integerList,
  integerOf,
  oneOf,
  optionalText,
  text,
  textList,
  urlText,
  weights,
} from './setting-types.ts';

export interface SettingDefinition {
  schema: z.ZodType;
  default: unknown;
  /** Kept, never answered nor published. */
  secret?: boolean;
}

const VISIBILITIES = ['private', 'internal', 'public'] as const;
const IMPORT_SOURCES = [
  'git',
  'manifest',
  'svc',
  'svc_project',
  'github',
  'bitbucket',
  'bitbucket_server',
  'google_code',
  'fogbugz',
  'gitea',
  'phabricator',
] as const;
const DOMAIN_SEPARATORS = /[\s,;]+/;

const setting = (schema: z.ZodType, defaultValue: unknown, options: { secret?: boolean } = {}): SettingDefinition => ({
  schema,
  default: defaultValue,
  ...options,
});
const secret = (schema: z.ZodType) => setting(schema, null, { secret: true });

export const SETTINGS = {
  abuse_notification_email: setting(emailText(), null),
  after_sign_out_path: setting(urlText(), null),
  after_sign_up_text: setting(optionalText(10_000), null),
  home_page_url: setting(urlText(), null),
  sign_in_text: setting(optionalText(10_000), null),
  spamfilter_enabled: setting(flag(), false),
  spamfilter_api_key: secret(optionalText()),
  allow_local_requests_from_web_hooks_and_services: setting(flag(), false),
  allow_local_requests_from_system_hooks: setting(flag(), true),
  archive_builds_in_human_readable: setting(durationText(86_400), null),
  asset_proxy_enabled: setting(flag(), false),
  asset_proxy_url: setting(urlText(), null),
  asset_proxy_secret_key: secret(optionalText()),
  asset_proxy_whitelist: setting(textList({ separators: DOMAIN_SEPARATORS }), []),
  authorized_keys_enabled: setting(flag(), true),
  auto_devops_domain: setting(optionalText(), null),
  auto_devops_enabled: setting(flag(), true),
  container_registry_token_expire_delay: setting(integerIn(1), 5),
  default_artifacts_expire_in: setting(durationText(1), '30 days'),
  default_ci_config_path: setting(optionalText(), null),
  commit_email_hostname: setting(optionalText(), null),
  default_branch_protection: setting(integerOf(0, 1, 2), 2),
  default_group_visibility: setting(oneOf(VISIBILITIES), 'private'),
  default_project_visibility: setting(oneOf(VISIBILITIES), 'private'),
  default_snippet_visibility: setting(oneOf(VISIBILITIES), 'private'),
  default_project_creation: setting(integerOf(0, 1, 2), 2),
  default_projects_limit: setting(integerIn(0), 100_000),
  // 0 (GitLab's default is 7): projects are deleted at once unless an administrator asks for a delay.
  deletion_adjourned_period: setting(integerIn(0, 90), 0),
  diff_max_patch_bytes: setting(integerIn(102_400, 1_048_576), 204_800),
  disabled_oauth_sign_in_sources: setting(textList(), []),
  dns_rebinding_protection_enabled: setting(flag(), true),
  domain_denylist_enabled: setting(flag(), false),
  domain_denylist: setting(textList({ separators: DOMAIN_SEPARATORS }), []),
  domain_allowlist: setting(textList({ separators: DOMAIN_SEPARATORS }).nullable(), null),
  dsa_key_restriction: setting(integerOf(0, -1, 1024, 2048, 3072), 0),
  ecdsa_key_restriction: setting(integerOf(0, -1, 256, 384, 521), 0),
  ed25519_key_restriction: setting(integerOf(0, -1, 256), 0),
  rsa_key_restriction: setting(integerOf(0, -1, 1024, 2048, 3072, 4096), 0),
  k8sprovider_access_key_id: setting(optionalText(), null),
  k8sprovider_account_id: setting(optionalText(), null),
  k8sprovider_integration_enabled: setting(flag(), false),
  k8sprovider_secret_access_key: secret(optionalText()),
  searchengine_url: setting(textList(), ['http://localhost:9200']),
  searchengine_aws: setting(flag(), false),
  searchengine_aws_region: setting(text(), 'us-east-1'),
  searchengine_aws_access_key: setting(optionalText(), null),
  searchengine_aws_secret_access_key: secret(optionalText()),
  searchengine_indexing: setting(flag(), false),
  searchengine_search: setting(flag(), false),
  searchengine_limit_indexing: setting(flag(), false),
  searchengine_namespace_ids: setting(integerList(), []),
  searchengine_project_ids: setting(integerList(), []),
  searchengine_indexed_field_length_limit: setting(integerIn(0), 0),
  searchengine_indexed_file_size_limit_kb: setting(integerIn(1), 1024),
  searchengine_max_bulk_concurrency: setting(integerIn(1), 10),
  searchengine_max_bulk_size_mb: setting(integerIn(1), 10),
  email_additional_text: setting(optionalText(10_000), null),
  email_author_in_body: setting(flag(), false),
  html_emails_enabled: setting(flag(), true),
  enabled_git_access_protocol: setting(
    oneOf(['ssh', 'http', 'nil', ''])
      .transform((value) => (value === 'nil' || value === '' ? null : value))
      .nullable(),
    null,
  ),
  enforce_namespace_storage_limit: setting(flag(), false),
  automatic_purchased_storage_allocation: setting(flag(), false),
  enforce_terms: setting(flag(), false),
  terms: setting(optionalText(100_000), null),
  external_auth_client_cert: setting(optionalText(20_000), null),
  external_auth_client_key: secret(optionalText(20_000)),
  external_auth_client_key_pass: secret(optionalText()),
  external_authorization_service_enabled: setting(flag(), false),
  external_authorization_service_default_label: setting(optionalText(), null),
  external_authorization_service_url: setting(urlText(), null),
  external_authorization_service_timeout: setting(decimalIn({ min: 0.001, max: 10, step: 0.001 }), 0.5),
  file_template_project_id: setting(integerIn(1).nullable(), null),
  first_day_of_week: setting(integerOf(0, 1, 6), 0),
  geo_node_allowed_ips: setting(addressList(), '0.0.0.0/0, ::/0'),
  geo_status_timeout: setting(integerIn(1), 10),
  storage_timeout_default: setting(integerIn(0), 55),
  storage_timeout_fast: setting(integerIn(0), 10),
  storage_timeout_medium: setting(integerIn(0), 30),
  dashboard_enabled: setting(flag(), false),
  dashboard_url: setting(urlText(), '/-/dashboard'),
  gravatar_enabled: setting(flag(), true),
  hashed_storage_enabled: setting(
    flag().refine((value) => value, { message: 'does not have a valid value' }),
    true,
  ),
  help_page_hide_commercial_content: setting(flag(), false),
  help_page_support_url: setting(urlText(), null),
  help_page_text: setting(optionalText(10_000), null),
  help_text: setting(optionalText(10_000), null),
  hide_third_party_offers: setting(flag(), false),
  housekeeping_enabled: setting(flag(), true),
  housekeeping_bitmaps_enabled: setting(flag(), true),
  housekeeping_full_repack_period: setting(integerIn(1), 50),
  housekeeping_gc_period: setting(integerIn(1), 200),
  housekeeping_incremental_repack_period: setting(integerIn(1), 10),
  import_sources: setting(textList({ values: IMPORT_SOURCES }), [
    'git',
    'svc_project',
    'gitea',
    'bitbucket',
    'bitbucket_server',
    'manifest',
  ]),
  issues_create_limit: setting(integerIn(0), 0),
  raw_blob_request_limit: setting(integerIn(0), 300),
  local_markdown_version: setting(integerIn(0, 65_535), 0),
  maintenance_mode: setting(flag(), false),
  maintenance_mode_message: setting(optionalText(10_000), null),
  max_artifacts_size: setting(integerIn(1), 100),
  max_attachment_size: setting(integerIn(1), 100),
  max_pages_size: setting(integerIn(0, 1_048_576), 100),
  max_import_size: setting(integerIn(0), 50),
  max_personal_access_token_lifetime: setting(integerIn(1, 365).nullable(), null),
  metrics_method_call_threshold: setting(integerIn(1), 10),
  mirror_available: setting(flag(), true),
  mirror_capacity_threshold: setting(integerIn(1), 50),
  mirror_max_capacity: setting(integerIn(1), 100),
  mirror_max_delay: setting(integerIn(0), 300),
  npm_package_requests_forwarding: setting(flag(), true),
  outbound_local_requests_whitelist: setting(textList({ separators: DOMAIN_SEPARATORS }), []),
  pages_domain_verification_enabled: setting(flag(), true),
  repository_storages: setting(textList(), ['default']),
  repository_storages_weighted: setting(weights(), { default: 100 }),
  plantuml_enabled: setting(flag(), false),
  plantuml_url: setting(urlText(), null),
  terminal_max_session_time: setting(integerIn(0), 0),
  polling_interval_multiplier: setting(decimalIn({ min: 0 }), 1),
  session_expire_delay: setting(integerIn(1), 10_080),
  performance_bar_allowed_group_id: setting(integerIn(1).nullable(), null),
  user_oauth_applications: setting(flag(), true),
  user_show_add_ssh_key_message: setting(flag(), true),
  password_authentication_enabled_for_web: setting(flag(), true),
  signup_enabled: setting(flag(), true),
  restricted_visibility_levels: setting(visibilityLevels(), []),
  require_admin_approval_after_user_signup: setting(flag(), true),
  snippet_size_limit: setting(integerIn(1), 52_428_800),
  wiki_page_max_content_bytes: setting(integerIn(1024), 52_428_800),
  allow_group_owners_to_manage_ldap: setting(flag(), true),
  check_namespace_plan: setting(flag(), false),
  container_expiration_policies_enable_historic_entries: setting(flag(), false),
} satisfies Record<string, SettingDefinition>;

export type SettingName = keyof typeof SETTINGS;

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** Every setting with its value: what is stored over the defaults. */
export type SettingValues = Record<SettingName, unknown>;

export const isSecret = (name: SettingName): boolean => (SETTINGS[name] as SettingDefinition).secret === true;

/** Deprecated names still accepted on write (and answered beside the new name), as GitLab keeps them. */
export const DEPRECATED_ALIASES: Record<string, SettingName> = {
  admin_notification_email: 'abuse_notification_email',
  allow_local_requests_from_hooks_and_services: 'allow_local_requests_from_web_hooks_and_services',
};

/**
 * Grape's `given ... requires`: a request turning the first setting on must also give these
 * (`{"error":"spamfilter_api_key is missing"}`).
 */
export const REQUIRED_WHEN_ENABLED: Partial<Record<SettingName, SettingName[]>> = {
  spamfilter_enabled: ['spamfilter_api_key'],
  asset_proxy_enabled: ['asset_proxy_url'],
  enforce_terms: ['terms'],
  external_authorization_service_enabled: [
    'external_authorization_service_default_label',
    'external_authorization_service_timeout',
    'external_authorization_service_url',
  ],
  domain_denylist_enabled: ['domain_denylist'],
  housekeeping_enabled: [
    'housekeeping_bitmaps_enabled',
    'housekeeping_full_repack_period',
    'housekeeping_gc_period',
    'housekeeping_incremental_repack_period',
  ],
  plantuml_enabled: ['plantuml_url'],
  searchengine_aws: ['searchengine_aws_region'],
};

const LEVEL_NAMES: Record<string, string> = { '0': 'private', '10': 'internal', '20': 'public' };

/** `restricted_visibility_levels`: names or GitLab's levels (0, 10, 20), in any list form, answered as names. */
function visibilityLevels() {
  return z.preprocess(
    (value) => {
      const list =
        typeof value === 'string'
          ? value
              .split(',')
              .map((part) => part.trim())
              .filter(Boolean)
          : value;
      return Array.isArray(list) ? [...new Set(list.map((item: unknown) => LEVEL_NAMES[String(item)] ?? item))] : list;
    },
    z.array(z.enum(VISIBILITIES)).max(3),
  );
}
