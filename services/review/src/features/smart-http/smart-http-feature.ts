import type { Feature } from '@platform/service';
import { smartHttpRoutes, type SmartHttpDeps } from './smart-http-router.ts';

/** Git over HTTP: clone, fetch and push, outside `/api`. */
export function createSmartHttpFeature(deps: SmartHttpDeps): Feature {
  return { streamingRoutes: [smartHttpRoutes(deps)] };
}
