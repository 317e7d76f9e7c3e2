/** Identity started by the service harness, with the gRPC client and the user helpers its tests share. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuthenticatedCaller } from '@platform/auth';
import { createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { IdentityServiceClient } from '@platform/proto/identity/v1';
import { startService, type RunningService } from '@platform/service';
import { adminCaller, callerHeader, startServiceHarness, TEST_INTERNAL_SECRET, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../config.ts';
import { identityService } from '../main.ts';

export const TEST_ROOT_TOKEN = 'glpat-integration-root-token-0001';
export const TEST_EXTERNAL_URL = 'http://platform.test';

export interface IdentityHarness extends ServiceHarness<RunningService> {
  /** Where this identity keeps its files (avatars); removed on stop. */
  dataDir: string;
  grpc: IdentityServiceClient;
  /** Creates a user through the API and answers its administrator view. */
  createUser(username: string, extra?: Record<string, unknown>): Promise<{ id: number; username: string } & Record<string, unknown>>;
  /** Creates a user through the API and returns a caller acting as them. */
  createCaller(
    username: string,
    options?: { external?: boolean; can_create_group?: boolean; projects_limit?: number },
  ): Promise<AuthenticatedCaller>;
}

export async function startIdentityHarness(
  label: string,
  env: Record<string, string> = {},
  clients: Parameters<typeof identityService>[1] = {},
): Promise<IdentityHarness> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `identity-${label}-`));
  const harness = await startServiceHarness({
    label,
    env: { EXTERNAL_URL: TEST_EXTERNAL_URL, ROOT_TOKEN: TEST_ROOT_TOKEN, DATA_DIR: dataDir, ...env },
    start: (testEnv) => startService(identityService(readConfig(testEnv), clients)),
  });
  const grpc = new IdentityServiceClient(
    `127.0.0.1:${harness.service.grpcPort}`,
    createChannelCredentials(),
    internalClientOptions({ internalSecret: TEST_INTERNAL_SECRET }),
  );
  const createUser: IdentityHarness['createUser'] = async (username, extra = {}) => {
    const response = await harness.api
      .post('/api/v4/users')
      .set(callerHeader(adminCaller()))
      .send({ email: `${username}@example.com`, name: `User ${username}`, username, password: 'a-long-enough-password', ...extra });
    if (response.status !== 201) throw new Error(`creating ${username}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  return {
    ...harness,
    dataDir,
    grpc,
    createUser,
    async createCaller(username, options = {}) {
      const user = await createUser(username, options);
      return userCaller(user.id, username);
    },
    async stop() {
      grpc.close();
      await harness.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
