import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { platformVersion } from './platform-release.ts';
import { serverMetadataRoutes } from './server-metadata-routes.ts';

/** `GET /version` and `GET /metadata`. */
export function createServerMetadataFeature(deps: { revision: string }): Feature {
  return { routes: [createRouter(serverMetadataRoutes, { release: { version: platformVersion(), revision: deps.revision } })] };
}
