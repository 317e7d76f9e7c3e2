import { identityEvents } from '@platform/identity-client';
import type { DeployTokenOwner as DeployTokenOwnerData, DeployTokenSnapshot } from '@platform/proto/identity/v1/events';
import { deployTokenUsername, type DeployToken } from './deploy-token.entity.ts';

/** The project or group a deploy token belongs to, with the path its audit events name. */
export type OwnerOfDeployToken = ({ projectId: number } | { groupId: number }) & { fullPath: string };

function deployTokenSnapshot(token: DeployToken): DeployTokenSnapshot {
  return {
    id: token.id,
    name: token.name,
    username: deployTokenUsername(token),
    scopes: token.scopes,
    expiresAt: token.expiresAt?.toISOString() ?? '',
  };
}

function ownerData(owner: OwnerOfDeployToken): DeployTokenOwnerData {
  return {
    projectId: 'projectId' in owner ? owner.projectId : 0,
    groupId: 'groupId' in owner ? owner.groupId : 0,
    fullPath: owner.fullPath,
  };
}

export function deployTokenCreatedEvent(token: DeployToken, owner: OwnerOfDeployToken) {
  return identityEvents.deployTokenCreated.event({
    aggregateId: token.id,
    data: { token: deployTokenSnapshot(token), owner: ownerData(owner) },
  });
}

export function deployTokenDestroyedEvent(token: DeployToken, owner: OwnerOfDeployToken) {
  return identityEvents.deployTokenDestroyed.event({
    aggregateId: token.id,
    data: { token: deployTokenSnapshot(token), owner: ownerData(owner) },
  });
}
