import type { MigrationObject } from '@platform/db';
import { Migration20261126180000_web_hooks } from './Migration20261126180000_web_hooks.ts';
import { Migration20261126190000_hook_delivery_lease } from './Migration20261126190000_hook_delivery_lease.ts';
import { Migration20261126205500_issuable_copies } from './Migration20261126205500_issuable_copies.ts';
import { Migration20261126212500_label_copies } from './Migration20261126212500_label_copies.ts';
import { Migration20261126214500_protected_branch_copies } from './Migration20261126214500_protected_branch_copies.ts';
import { Migration20261126221000_commit_copies } from './Migration20261126221000_commit_copies.ts';
import { Migration20261126222500_protected_tag_copies } from './Migration20261126222500_protected_tag_copies.ts';
import { Migration20261127001500_test_samples } from './Migration20261127001500_test_samples.ts';
import { Migration20261127004500_deployment_copies } from './Migration20261127004500_deployment_copies.ts';
import { Migration20261127005000_note_copies } from './Migration20261127005000_note_copies.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261126180000_web_hooks', class: Migration20261126180000_web_hooks },
  { name: 'Migration20261126190000_hook_delivery_lease', class: Migration20261126190000_hook_delivery_lease },
  { name: 'Migration20261126205500_issuable_copies', class: Migration20261126205500_issuable_copies },
  { name: 'Migration20261126212500_label_copies', class: Migration20261126212500_label_copies },
  { name: 'Migration20261126214500_protected_branch_copies', class: Migration20261126214500_protected_branch_copies },
  { name: 'Migration20261126221000_commit_copies', class: Migration20261126221000_commit_copies },
  { name: 'Migration20261126222500_protected_tag_copies', class: Migration20261126222500_protected_tag_copies },
  { name: 'Migration20261127001500_test_samples', class: Migration20261127001500_test_samples },
  { name: 'Migration20261127004500_deployment_copies', class: Migration20261127004500_deployment_copies },
  { name: 'Migration20261127005000_note_copies', class: Migration20261127005000_note_copies },
];
