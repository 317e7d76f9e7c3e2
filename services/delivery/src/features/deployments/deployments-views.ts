import type { Deployment } from './deployment.entity.ts';
import type { Environment } from './environment.entity.ts';

/** GitLab's `EnvironmentBasic`, as a deployment names where it went. */
export function environmentBasicView(environment: Environment) {
  return {
    id: environment.id,
    name: environment.name,
    slug: environment.slug,
    external_url: environment.externalUrl,
    created_at: environment.createdAt.toISOString(),
    updated_at: environment.updatedAt.toISOString(),
  };
}

/** GitLab's deployment; `deployable` is null as no pipeline runs here. */
export function deploymentView(placed: { deployment: Deployment; environment: Environment }, options: { baseUrl: string }) {
  const { deployment, environment } = placed;
  return {
    id: deployment.id,
    iid: deployment.iid,
    ref: deployment.ref,
    sha: deployment.sha,
    created_at: deployment.createdAt.toISOString(),
    updated_at: deployment.updatedAt.toISOString(),
    status: deployment.status,
    user:
      deployment.userId === null
        ? null
        : {
            id: deployment.userId,
            username: deployment.userUsername,
            name: deployment.userName,
            state: 'active',
            avatar_url: null,
            web_url: `${options.baseUrl}/${deployment.userUsername}`,
          },
    environment: environmentBasicView(environment),
    deployable: null,
  };
}

/** GitLab's environment: exactly the fields of its schema; a single environment also shows its last deployment. */
export function environmentView(environment: Environment) {
  return {
    id: environment.id,
    name: environment.name,
    slug: environment.slug,
    external_url: environment.externalUrl,
    state: environment.state,
    tier: environment.tier,
    created_at: environment.createdAt.toISOString(),
    updated_at: environment.updatedAt.toISOString(),
  };
}
