import { z } from 'zod';
import { routesOf } from '@platform/http';
import type { PlatformRelease } from './platform-release.ts';

const route = routesOf<{ release: PlatformRelease }>('identity');

const versionResponse = z.object({ version: z.string(), revision: z.string() });

/** `GET /version` and `GET /metadata`, which clients call to detect the server and its version. */
export const serverMetadataRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/version',
    access: 'user',
    scope: 'read_api',
    input: z.object({}),
    response: versionResponse,
    handle: async ({ deps: { release } }) => ({ version: release.version, revision: release.revision }),
  }),
  route({
    method: 'GET',
    path: '/api/v4/metadata',
    access: 'user',
    scope: 'read_api',
    input: z.object({}),
    response: versionResponse.extend({
      kas: z.object({ enabled: z.boolean(), externalUrl: z.string().nullable(), version: z.string().nullable() }),
      enterprise: z.boolean(),
    }),
    // No Kubernetes agent server is part of the platform.
    handle: async ({ deps: { release } }) => ({
      version: release.version,
      revision: release.revision,
      kas: { enabled: false, externalUrl: null, version: null },
      enterprise: false,
    }),
  }),
];
