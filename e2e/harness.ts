/**
 * Starts the whole platform (every service and the gateway, as separate processes) against the
 * test run's PostgreSQL and Kafka, with its own databases and consumer groups.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test as SuperTestRequest } from 'supertest';
import { startPlatform, type RestartPolicy, type RunningPlatform } from '@platform/devstack';
import { dropDatabases, TEST_INTERNAL_SECRET, testEnvironment } from '@platform/testing';

export const E2E_ROOT_TOKEN = 'glpat-e2e-root-token-000000000';

/**
 * `authCacheTtlMs: 0` makes the gateway ask identity on every request, so blocking is seen at once;
 * `env` adds variables for every process; `onLine` receives what each process prints; `services`
 * starts only those (and identity), for a test that needs no others: it starts sooner and loads
 * the machine less.
 */
export async function startTestPlatform(
  options: {
    authCacheTtlMs?: number;
    env?: NodeJS.ProcessEnv;
    onLine?: (service: string, line: string) => void;
    onRestart?: (message: string) => void;
    restartPolicy?: RestartPolicy;
    services?: string[];
    /** Processes per service (`{ identity: 2 }`). */
    replicas?: Record<string, number>;
    /** A broker of the test's own (one it stops, say) instead of the test run's. */
    kafkaBrokers?: string[];
    /** The gateway's environment over everything else (a service's address through the test's proxy). */
    gatewayEnv?: NodeJS.ProcessEnv;
  } = {},
): Promise<RunningPlatform & { databasePrefix: string }> {
  const { postgresUrl, kafkaBrokers: sharedBrokers } = testEnvironment();
  const kafkaBrokers = options.kafkaBrokers ?? sharedBrokers;
  const run = randomBytes(4).toString('hex');
  const databasePrefix = `e2e_${run}_`;
  const platform = await startPlatform({
    postgresUrl,
    kafkaBrokers,
    rootToken: E2E_ROOT_TOKEN,
    internalSecret: TEST_INTERNAL_SECRET,
    gatewayPort: 0,
    freePorts: true,
    databasePrefix,
    kafkaNamespace: `e2e-${run}`,
    logLevel: 'warn',
    env: { ...options.env, ...(options.authCacheTtlMs === undefined ? {} : { AUTH_CACHE_TTL_MS: String(options.authCacheTtlMs) }) },
    ...(options.onLine ? { onLine: options.onLine } : {}),
    ...(options.onRestart ? { onRestart: options.onRestart } : {}),
    ...(options.restartPolicy ? { restartPolicy: options.restartPolicy } : {}),
    ...(options.services ? { services: options.services } : {}),
    ...(options.replicas ? { replicas: options.replicas } : {}),
    ...(options.gatewayEnv ? { gatewayEnv: options.gatewayEnv } : {}),
  });
  return {
    ...platform,
    databasePrefix,
    async stop() {
      await platform.stop();
      await dropDatabases(databasePrefix);
    },
  };
}

export interface E2eUser {
  id: number;
  username: string;
  email: string;
  token: string;
  /** The user's token as a request header. */
  headers: { 'PRIVATE-TOKEN': string };
}

type RootGateway = { post(url: string): SuperTestRequest };
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

/** A personal access token root issues to `userId`, of `scopes` (`api` unless told). */
export async function createPersonalAccessToken(gateway: RootGateway, options: { userId: number; scopes?: string[] }): Promise<string> {
  const token = await gateway
    .post(`/api/v4/users/${options.userId}/personal_access_tokens`)
    .set(asRoot)
    .send({ name: 'all', scopes: options.scopes ?? ['api'] });
  if (token.status !== 201) throw new Error(`a token for user ${options.userId}: ${token.status} ${JSON.stringify(token.body)}`);
  return token.body.token as string;
}

/** Root makes `userId` a member of project `projectId` at `accessLevel`. */
export async function addProjectMember(
  gateway: RootGateway,
  membership: { projectId: number; userId: number; accessLevel: number },
): Promise<void> {
  const member = await gateway
    .post(`/api/v4/projects/${membership.projectId}/members`)
    .set(asRoot)
    .send({ user_id: membership.userId, access_level: membership.accessLevel });
  if (member.status !== 201) throw new Error(`adding user ${membership.userId}: ${member.status} ${JSON.stringify(member.body)}`);
}

/**
 * A user root creates through `gateway` (email `<username>@example.com`, display name the username
 * unless `name` says otherwise), with a personal access token of `scopes`, and a member of the
 * projects in `memberships`. `skipConfirmation` confirms the email, as GitLab matches committers by
 * confirmed emails only.
 */
export async function createUserWithToken(
  gateway: RootGateway,
  username: string,
  options: {
    scopes?: string[];
    password?: string;
    name?: string;
    skipConfirmation?: boolean;
    memberships?: Array<{ projectId: number; accessLevel: number }>;
  } = {},
): Promise<E2eUser> {
  const email = `${username}@example.com`;
  const user = await gateway
    .post('/api/v4/users')
    .set(asRoot)
    .send({
      email,
      name: options.name ?? username,
      username,
      password: options.password ?? 'a-long-enough-password',
      ...(options.skipConfirmation ? { skip_confirmation: true } : {}),
    });
  if (user.status !== 201) throw new Error(`creating ${username}: ${user.status} ${JSON.stringify(user.body)}`);
  const id = user.body.id as number;
  for (const { projectId, accessLevel } of options.memberships ?? [])
    await addProjectMember(gateway, { projectId, userId: id, accessLevel });
  const token = await createPersonalAccessToken(gateway, { userId: id, ...(options.scopes ? { scopes: options.scopes } : {}) });
  return { id, username, email, token, headers: { 'PRIVATE-TOKEN': token } };
}

/** A temporary directory of the test file's own (clones, client projects, the clients' HOME); `removeWorkDir` in `afterAll`. */
export function createWorkDir(label: string): string {
  return mkdtempSync(path.join(tmpdir(), `e2e-${label}-`));
}

/** Removes a directory `createWorkDir` made; nothing when `beforeAll` failed before making it. */
export function removeWorkDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/**
 * The spec's merge request fields that GitLab's list schema (`merge_requests.json`) does not
 * allow: checked as `added` when a merge request list is validated against it.
 */
export const MERGE_REQUEST_LIST_ADDED_FIELDS = [
  'assignees',
  'reviewers',
  'references',
  'reference',
  'task_completion_status',
  'has_conflicts',
  'draft',
  'merged_by',
  'merge_user',
  'merged_at',
  'closed_by',
  'closed_at',
  'detailed_merge_status',
  'squash_commit_sha',
  'allow_collaboration',
  'squash_on_merge',
  'blocking_discussions_resolved',
];
