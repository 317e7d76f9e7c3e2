import { packagesEvents } from '@platform/packages-client';
import { onEvent } from '@platform/events';
import { auditEvent, type AuditTranslation } from './translation-helpers.ts';

/** `npm` 1.2.0 of `@acme/kit`, as the audit event's message names a package version. */
const described = (data: { packageType: string; name: string; version: string }) =>
  `${data.packageType} package ${data.name}${data.version ? ` ${data.version}` : ''}`;

/** Audit events of packages published to and deleted from a project's registry, and of container image tags pushed and deleted. */
export const packageAuditEvents: AuditTranslation[] = [
  onEvent(packagesEvents.packagePublished, (data, event) =>
    auditEvent(event, {
      entity: { type: 'Project', id: data.projectId, path: data.projectPath },
      eventName: 'package_published',
      target: { id: data.packageId, type: 'Packages::Package', details: data.name },
      action: { custom_message: `Published ${described(data)}` },
    }),
  ),
  onEvent(packagesEvents.packageDeleted, (data, event) =>
    auditEvent(event, {
      entity: { type: 'Project', id: data.projectId, path: data.projectPath },
      eventName: 'package_deleted',
      target: { id: data.packageId, type: 'Packages::Package', details: data.name },
      action: { custom_message: `Deleted ${described(data)}` },
    }),
  ),
  onEvent(packagesEvents.containerTagPushed, (data, event) =>
    auditEvent(event, {
      entity: { type: 'Project', id: data.projectId, path: data.projectPath },
      eventName: 'container_repository_tag_pushed',
      target: { id: data.repositoryId, type: 'ContainerRepository', details: `${data.repositoryPath}:${data.tag}` },
      action: { custom_message: `Pushed container image tag ${data.repositoryPath}:${data.tag} (${data.digest})` },
    }),
  ),
  onEvent(packagesEvents.containerTagDeleted, (data, event) =>
    auditEvent(event, {
      entity: { type: 'Project', id: data.projectId, path: data.projectPath },
      eventName: 'container_repository_tag_deleted',
      target: { id: data.repositoryId, type: 'ContainerRepository', details: `${data.repositoryPath}:${data.tag}` },
      action: { custom_message: `Deleted container image tag ${data.repositoryPath}:${data.tag}` },
    }),
  ),
];
