import { identityEvents } from '@platform/identity-client';
import type { DeployKeyProject, DeployKeySnapshot } from '@platform/proto/identity/v1/deploy-key-events';
import type { DeployKey } from './deploy-key.entity.ts';

function deployKeySnapshot(key: DeployKey): DeployKeySnapshot {
  return { id: key.id, title: key.title, fingerprintSha256: key.fingerprintSha256, public: key.public };
}

/** A key enabled on `project`, or an instance key added enabled nowhere (no project). */
export function deployKeyAddedEvent(key: DeployKey, enabled?: { project: DeployKeyProject; canPush: boolean }) {
  return identityEvents.deployKeyAdded.event({
    aggregateId: key.id,
    data: { key: deployKeySnapshot(key), project: enabled?.project, canPush: enabled?.canPush ?? false },
  });
}

/** A key disabled on `project`; `keyDeleted` when it went with it. */
export function deployKeyRemovedEvent(key: DeployKey, options: { project: DeployKeyProject; keyDeleted: boolean }) {
  return identityEvents.deployKeyRemoved.event({
    aggregateId: key.id,
    data: { key: deployKeySnapshot(key), project: options.project, keyDeleted: options.keyDeleted },
  });
}
