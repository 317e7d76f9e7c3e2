import { readModelDatabase, type EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import { Pipeline, PipelineIid } from './pipeline.entity.ts';
import { PipelinesReadModel } from './pipelines-read-model.ts';
import { pipelinesRoutes } from './pipelines-routes.ts';

export const pipelinesEntities = [Pipeline, PipelineIid];

/** External pipelines as the API lists and shows them (commit statuses write them). */
export function createPipelinesFeature(deps: { em: EntityManager; access: IdentityAccess }): Feature {
  const pipelines = new PipelinesReadModel(readModelDatabase(deps.em));
  return { routes: [createRouter(pipelinesRoutes, { access: deps.access, pipelines })] };
}
