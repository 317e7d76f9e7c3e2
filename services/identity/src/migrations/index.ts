import type { MigrationObject } from '@platform/db';
import { Migration20261122000100_users_and_tokens } from './Migration20261122000100_users_and_tokens.ts';
import { Migration20261122000300_users_area } from './Migration20261122000300_users_area.ts';
import { Migration20261122000400_namespaces_projects_members } from './Migration20261122000400_namespaces_projects_members.ts';
import { Migration20261122000500_saml_providers_and_scim } from './Migration20261122000500_saml_providers_and_scim.ts';
import { Migration20261122180000_scim_account_links } from './Migration20261122180000_scim_account_links.ts';
import { Migration20261122190000_list_indexes } from './Migration20261122190000_list_indexes.ts';
import { Migration20261124170400_project_repository_storage } from './Migration20261124170400_project_repository_storage.ts';
import { Migration20261124170500_project_deletion_marks } from './Migration20261124170500_project_deletion_marks.ts';
import { Migration20261124172000_project_forks } from './Migration20261124172000_project_forks.ts';
import { Migration20261126180000_project_authorizations } from './Migration20261126180000_project_authorizations.ts';
import { Migration20261126181700_user_states } from './Migration20261126181700_user_states.ts';
import { Migration20261126205100_ssh_key_md5_fingerprints } from './Migration20261126205100_ssh_key_md5_fingerprints.ts';
import { Migration20261126205300_machine_tokens } from './Migration20261126205300_machine_tokens.ts';
import { Migration20261126210900_deploy_tokens } from './Migration20261126210900_deploy_tokens.ts';
import { Migration20261126211800_deploy_keys } from './Migration20261126211800_deploy_keys.ts';
import { Migration20261126211500_user_emails } from './Migration20261126211500_user_emails.ts';
import { Migration20261126212600_user_activity_index } from './Migration20261126212600_user_activity_index.ts';
import { Migration20261127001600_allow_merge_on_skipped_pipeline } from './Migration20261127001600_allow_merge_on_skipped_pipeline.ts';
import { Migration20261127010000_projects_visibility_id_index } from './Migration20261127010000_projects_visibility_id_index.ts';
import { Migration20261127030500_list_counts } from './Migration20261127030500_list_counts.ts';
import { Migration20261127031500_group_list_indexes } from './Migration20261127031500_group_list_indexes.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000100_users_and_tokens', class: Migration20261122000100_users_and_tokens },
  { name: 'Migration20261122000300_users_area', class: Migration20261122000300_users_area },
  { name: 'Migration20261122000400_namespaces_projects_members', class: Migration20261122000400_namespaces_projects_members },
  { name: 'Migration20261122000500_saml_providers_and_scim', class: Migration20261122000500_saml_providers_and_scim },
  { name: 'Migration20261122180000_scim_account_links', class: Migration20261122180000_scim_account_links },
  { name: 'Migration20261122190000_list_indexes', class: Migration20261122190000_list_indexes },
  { name: 'Migration20261124170400_project_repository_storage', class: Migration20261124170400_project_repository_storage },
  { name: 'Migration20261124170500_project_deletion_marks', class: Migration20261124170500_project_deletion_marks },
  { name: 'Migration20261124172000_project_forks', class: Migration20261124172000_project_forks },
  { name: 'Migration20261126180000_project_authorizations', class: Migration20261126180000_project_authorizations },
  { name: 'Migration20261126181700_user_states', class: Migration20261126181700_user_states },
  { name: 'Migration20261126205100_ssh_key_md5_fingerprints', class: Migration20261126205100_ssh_key_md5_fingerprints },
  { name: 'Migration20261126205300_machine_tokens', class: Migration20261126205300_machine_tokens },
  { name: 'Migration20261126210900_deploy_tokens', class: Migration20261126210900_deploy_tokens },
  { name: 'Migration20261126211500_user_emails', class: Migration20261126211500_user_emails },
  { name: 'Migration20261126211800_deploy_keys', class: Migration20261126211800_deploy_keys },
  { name: 'Migration20261126212600_user_activity_index', class: Migration20261126212600_user_activity_index },
  { name: 'Migration20261127001600_allow_merge_on_skipped_pipeline', class: Migration20261127001600_allow_merge_on_skipped_pipeline },
  { name: 'Migration20261127010000_projects_visibility_id_index', class: Migration20261127010000_projects_visibility_id_index },
  { name: 'Migration20261127030500_list_counts', class: Migration20261127030500_list_counts },
  { name: 'Migration20261127031500_group_list_indexes', class: Migration20261127031500_group_list_indexes },
];
