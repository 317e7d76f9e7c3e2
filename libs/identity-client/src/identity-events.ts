/**
 * Every event identity publishes, declared once: identity records them and consumers (audit,
 * ...) decode them through these definitions. Their data are the messages of
 * `proto/identity/v1/*events.proto`.
 */
import { defineEvent } from '@platform/events';
import {
  DeployTokenCreated,
  DeployTokenDestroyed,
  GpgKeyAdded,
  GpgKeyRemoved,
  SshKeyAdded,
  SshKeyRemoved,
  PersonalAccessTokenCreated,
  PersonalAccessTokenRevoked,
  UserBlocked,
  UserCreated,
  UserDeleted,
  UserUnblocked,
  UserUpdated,
} from '@platform/proto/identity/v1/events';
import {
  AccessRequestApproved,
  AccessRequestDenied,
  AccessRequested,
  GroupCreated,
  GroupDeleted,
  GroupShared,
  GroupTransferred,
  GroupUnshared,
  GroupUpdated,
  MemberAdded,
  MemberRemoved,
  MemberUpdated,
  ProjectCreated,
  ProjectDeleted,
  ProjectShared,
  ProjectTransferred,
  ProjectUnshared,
  ProjectUpdated,
} from '@platform/proto/identity/v1/namespace-events';
import {
  SamlProviderCreated,
  SamlProviderUpdated,
  ScimTokenCreated,
  ScimTokenRevoked,
  ScimUserDeprovisioned,
  ScimUserProvisioned,
} from '@platform/proto/identity/v1/scim-events';
import { UserEmailAdded, UserEmailRemoved } from '@platform/proto/identity/v1/user-email-events';
import { DeployKeyAdded, DeployKeyRemoved } from '@platform/proto/identity/v1/deploy-key-events';

/** Identity's events travel on one topic, keyed by the aggregate id. */
export const IDENTITY_TOPIC = 'identity.events';
const topic = { topic: IDENTITY_TOPIC };

export const identityEvents = {
  userCreated: defineEvent('identity.user.created', UserCreated, topic),
  userUpdated: defineEvent('identity.user.updated', UserUpdated, topic),
  userBlocked: defineEvent('identity.user.blocked', UserBlocked, topic),
  userUnblocked: defineEvent('identity.user.unblocked', UserUnblocked, topic),
  userDeleted: defineEvent('identity.user.deleted', UserDeleted, topic),
  sshKeyAdded: defineEvent('identity.ssh_key.added', SshKeyAdded, topic),
  sshKeyRemoved: defineEvent('identity.ssh_key.removed', SshKeyRemoved, topic),
  gpgKeyAdded: defineEvent('identity.gpg_key.added', GpgKeyAdded, topic),
  gpgKeyRemoved: defineEvent('identity.gpg_key.removed', GpgKeyRemoved, topic),
  /** Keyed by the email's owner. */
  userEmailAdded: defineEvent('identity.user_email.added', UserEmailAdded, topic),
  userEmailRemoved: defineEvent('identity.user_email.removed', UserEmailRemoved, topic),
  /** Keyed by the key. */
  deployKeyAdded: defineEvent('identity.deploy_key.added', DeployKeyAdded, topic),
  deployKeyRemoved: defineEvent('identity.deploy_key.removed', DeployKeyRemoved, topic),
  /** Keyed by the deploy token. */
  deployTokenCreated: defineEvent('identity.deploy_token.created', DeployTokenCreated, topic),
  deployTokenDestroyed: defineEvent('identity.deploy_token.destroyed', DeployTokenDestroyed, topic),
  /** Keyed by the token's owner, like its revocation. */
  personalAccessTokenCreated: defineEvent('identity.personal_access_token.created', PersonalAccessTokenCreated, topic),
  /** Keyed by the token's owner, in order with the owner's own events; caches of authentications drop the owner's answers. */
  personalAccessTokenRevoked: defineEvent('identity.personal_access_token.revoked', PersonalAccessTokenRevoked, topic),
  groupCreated: defineEvent('identity.group.created', GroupCreated, topic),
  groupUpdated: defineEvent('identity.group.updated', GroupUpdated, topic),
  groupDeleted: defineEvent('identity.group.deleted', GroupDeleted, topic),
  groupShared: defineEvent('identity.group.shared', GroupShared, topic),
  groupUnshared: defineEvent('identity.group.unshared', GroupUnshared, topic),
  /** Every path below the group changed with it; copies of paths are rewritten by prefix. */
  groupTransferred: defineEvent('identity.group.transferred', GroupTransferred, topic),
  projectCreated: defineEvent('identity.project.created', ProjectCreated, topic),
  projectUpdated: defineEvent('identity.project.updated', ProjectUpdated, topic),
  projectDeleted: defineEvent('identity.project.deleted', ProjectDeleted, topic),
  projectShared: defineEvent('identity.project.shared', ProjectShared, topic),
  projectUnshared: defineEvent('identity.project.unshared', ProjectUnshared, topic),
  projectTransferred: defineEvent('identity.project.transferred', ProjectTransferred, topic),
  memberAdded: defineEvent('identity.member.added', MemberAdded, topic),
  memberUpdated: defineEvent('identity.member.updated', MemberUpdated, topic),
  memberRemoved: defineEvent('identity.member.removed', MemberRemoved, topic),
  accessRequested: defineEvent('identity.access_request.requested', AccessRequested, topic),
  accessRequestApproved: defineEvent('identity.access_request.approved', AccessRequestApproved, topic),
  accessRequestDenied: defineEvent('identity.access_request.denied', AccessRequestDenied, topic),
  samlProviderCreated: defineEvent('identity.saml_provider.created', SamlProviderCreated, topic),
  samlProviderUpdated: defineEvent('identity.saml_provider.updated', SamlProviderUpdated, topic),
  scimTokenCreated: defineEvent('identity.scim_token.created', ScimTokenCreated, topic),
  scimTokenRevoked: defineEvent('identity.scim_token.revoked', ScimTokenRevoked, topic),
  scimUserProvisioned: defineEvent('identity.scim_user.provisioned', ScimUserProvisioned, topic),
  scimUserDeprovisioned: defineEvent('identity.scim_user.deprovisioned', ScimUserDeprovisioned, topic),
};
