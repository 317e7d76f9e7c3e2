import { identityEvents } from '@platform/identity-client';
import { onEvent, type EventEnvelope } from '@platform/events';
import type { DeployKeyProject, DeployKeySnapshot } from '@platform/proto/identity/v1/deploy-key-events';
import type { NewAuditEvent } from '../audit-events-store.ts';
import { auditEvent, instanceAuditEvent, type AuditAction, type AuditTranslation } from './translation-helpers.ts';

/**
 * A deploy key added to or removed from a project is the project's audit event, as GitLab's
 * `DeployKeys::CreateService`, `EnableDeployKeyService` and `DisableDeployKeyService` record it;
 * an instance key added enabled nowhere, the administrator's.
 */
function deployKeyAuditEvent(
  event: EventEnvelope,
  options: { key: DeployKeySnapshot; project: DeployKeyProject | undefined; eventName: string; action: AuditAction },
): NewAuditEvent {
  const { key, project, eventName, action } = options;
  const target = { id: key.id, type: 'DeployKey', details: key.title };
  if (!project) return instanceAuditEvent(event, { eventName, target, action });
  return auditEvent(event, { entity: { type: 'Project', id: project.id, path: project.pathWithNamespace }, eventName, target, action });
}

/** Audit events of deploy keys added to (or enabled on) projects and removed from them, and of instance keys added. */
export const deployKeyAuditEvents: AuditTranslation[] = [
  onEvent(identityEvents.deployKeyAdded, ({ key, project }, event) =>
    key
      ? deployKeyAuditEvent(event, {
          key,
          project,
          eventName: 'deploy_key_added',
          action: { add: 'deploy_key', custom_message: 'Added deploy key' },
        })
      : undefined,
  ),
  onEvent(identityEvents.deployKeyRemoved, ({ key, project }, event) =>
    key && project
      ? deployKeyAuditEvent(event, {
          key,
          project,
          eventName: 'deploy_key_removed',
          action: { remove: 'deploy_key', custom_message: 'Removed deploy key' },
        })
      : undefined,
  ),
];
