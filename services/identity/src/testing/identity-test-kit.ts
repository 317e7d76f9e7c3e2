/** The identity harness with callers: for feature tests that act as particular users. */
import type request from 'supertest';
import type { Caller } from '@platform/auth';
import { callerHeader, userCaller } from '@platform/testing';
import type { RunningIdentity } from '../main.ts';
import { startIdentityHarness, TEST_EXTERNAL_URL, type IdentityHarness } from './identity-test-harness.ts';

export interface IdentityTestKit {
  identity: RunningIdentity;
  api: ReturnType<typeof request>;
  /** Creates a user through the API and returns a caller acting as them. */
  createUser(
    username: string,
    options?: { external?: boolean; can_create_group?: boolean; projects_limit?: number },
  ): Promise<Caller & { kind: 'user' }>;
  as(caller: Caller): Record<string, string>;
  /** Runs SQL straight against the service's database. */
  sql: IdentityHarness['sql'];
  stop(): Promise<void>;
}

export const EXTERNAL_URL = TEST_EXTERNAL_URL;

export async function startIdentityTestKit(label: string): Promise<IdentityTestKit> {
  const harness = await startIdentityHarness(label);
  return {
    identity: harness.identity,
    api: harness.api,
    async createUser(username, options = {}) {
      const user = await harness.createUser(username, options);
      return userCaller(user.id, username) as Caller & { kind: 'user' };
    },
    as: (caller) => callerHeader(caller),
    sql: harness.sql,
    stop: () => harness.stop(),
  };
}
