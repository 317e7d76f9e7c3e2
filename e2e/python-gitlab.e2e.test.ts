/**
 * A second, independent client: Debian's python-gitlab drives users, groups, projects, members,
 * access requests, keys, emails and tokens through the gateway (e2e/python-gitlab/drive_platform.py),
 * project and group CI/CD variables (e2e/python-gitlab/drive_variables.py), and generic packages
 * (e2e/python-gitlab/drive_generic_packages.py, and a curl-like streamed upload through the gateway).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RunningPlatform } from '@platform/devstack';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

const INSTALL = 'apt-get install python3-gitlab (or run `sh scripts/bootstrap.sh` as root)';
/** Debian's interpreter, for which the python3-gitlab package is installed. */
const PYTHON = '/usr/bin/python3';
const script = fileURLToPath(new URL('./python-gitlab/drive_platform.py', import.meta.url));
const variablesScript = fileURLToPath(new URL('./python-gitlab/drive_variables.py', import.meta.url));
const genericPackagesScript = fileURLToPath(new URL('./python-gitlab/drive_generic_packages.py', import.meta.url));

let platform: RunningPlatform;

beforeAll(async () => {
  const probe = spawnSync(PYTHON, ['-c', 'import gitlab; print(gitlab.__version__)'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error(`python-gitlab is missing: ${INSTALL}`);
  platform = await startTestPlatform({ services: ['identity', 'admin', 'packages'] });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

/** An ed25519 public key in OpenSSH's form, and its SHA256 fingerprint as `ssh-keygen -l` prints it. */
function openSshPublicKey(): { line: string; fingerprint: string } {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]);
  const fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return { line: `ssh-ed25519 ${blob.toString('base64')} py@test`, fingerprint };
}

describe('python-gitlab end to end', () => {
  it('drives users, keys, emails, memberships, tokens, groups, projects, access requests, members, transfers, avatars, namespaces and a blocked user', async () => {
    const key = openSshPublicKey();
    const { stdout } = await promisify(execFile)(PYTHON, [script], {
      env: {
        ...process.env,
        GITLAB_URL: platform.url,
        GITLAB_ROOT_TOKEN: E2E_ROOT_TOKEN,
        SSH_PUBLIC_KEY: key.line,
        SSH_KEY_FINGERPRINT: key.fingerprint,
      },
    });
    const facts = JSON.parse(stdout) as Record<string, unknown>;
    expect(facts).toMatchObject({
      root: 'root',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      location: 'Porto',
      key_titles: ['py laptop'],
      token_user: 'py-user',
      own_token_names: ['py-token'],
      project_path: 'py-group/py-project',
      requesters: ['py-user'],
      group_members: { root: 50, 'py-user': 30 },
      project_members: { 'py-user': 40 },
      visible_to_user: ['py-group/py-project'],
      revoked_token_refused: true,
      transferred_group: 'py-target/py-sub',
      transferred_group_project: 'py-target/py-sub/py-tool',
      promoted_group: 'py-sub',
      transferred_project: 'py-target/py-tool',
      transfer_refusal: [400, 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}'],
      group_transfer_refusal: [400, 'Transfer failed: Group is already a root group.'],
      blocked_refusal: [403, '403 Forbidden - Your account has been blocked.'],
      group_avatar_url: expect.stringMatching(/\/uploads\/-\/system\/group\/avatar\/\d+\/[^/]+\.png$/),
      group_avatar_downloaded: true,
      key_by_id_owner: 'py-user',
      key_by_fingerprint_title: 'py laptop',
      user_emails: { 'py-work@example.com': true, 'py-home@example.com': false },
      memberships: [
        ['Namespace', 30],
        ['Project', 40],
      ],
      user_projects: ['py-user/py-own'],
      activities_listed: true,
      namespace_exists: { exists: true, suggests: ['py-group1'] },
      namespace_free: { exists: false, suggests: [] },
      project_groups: ['py-group'],
      project_storage: ['created_at', 'disk_path', 'project_id', 'repository_storage'],
    });
    expect(facts.active_usernames).toEqual(expect.arrayContaining(['root', 'py-user']));
  });

  it('manages project and group CI/CD variables with project.variables and group.variables', async () => {
    const { stdout } = await promisify(execFile)(PYTHON, [variablesScript], {
      env: { ...process.env, GITLAB_URL: platform.url, GITLAB_ROOT_TOKEN: E2E_ROOT_TOKEN },
    });
    expect(JSON.parse(stdout)).toEqual({
      project_created: {
        variable_type: 'env_var',
        key: 'DEPLOY_TOKEN',
        value: 'first-secret',
        hidden: false,
        protected: true,
        masked: true,
        raw: false,
        environment_scope: '*',
        description: null,
      },
      project_updated: { value: 'second-secret', variable_type: 'file', masked: true },
      project_keys: [
        ['DB_URL', '*'],
        ['DB_URL', 'production'],
        ['DEPLOY_TOKEN', '*'],
      ],
      ambiguous: [409, "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'"],
      filtered_value: 'postgres://production',
      masked_refusal: [400, { value: ['is invalid'] }],
      project_keys_after_delete: ['DB_URL', 'DB_URL'],
      group_variable: { value: 'group-value', raw: true, protected: true, description: 'for every project', environment_scope: '*' },
      group_keys_after_delete: [],
      developer_refusal: 403,
    });
  });

  it('uploads and downloads generic packages with project.generic_packages, and streams a raw upload through the gateway', async () => {
    const { stdout } = await promisify(execFile)(PYTHON, [genericPackagesScript], {
      env: { ...process.env, GITLAB_URL: platform.url, GITLAB_ROOT_TOKEN: E2E_ROOT_TOKEN },
    });
    expect(JSON.parse(stdout)).toEqual({
      upload_message: '201 Created',
      byte_equal: true,
      sha256: true,
      nested: 'second notes',
      packages: [['py-tools', '2.0.1', 'generic']],
      files: [
        ['tools.bin', 5 * 1024 * 1024 + 3],
        ['docs%2Fnotes.txt', 11],
        ['docs%2Fnotes.txt', 12],
      ],
    });

    // As `curl --upload-file` sends it: an untyped body, in chunks, of 12 MB.
    const project = (await (
      await fetch(`${platform.url}/api/v4/projects`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'curl-generic' }),
      })
    ).json()) as { id: number };
    const chunks = Array.from({ length: 12 }, () => randomBytes(1024 * 1024));
    const fileUrl = `${platform.url}/api/v4/projects/${project.id}/packages/generic/curl-tools/1.0.0/big.bin`;
    const uploaded = await fetch(`${fileUrl}?select=package_file`, {
      method: 'PUT',
      headers: { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN },
      body: Readable.toWeb(Readable.from(chunks)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(uploaded.status).toBe(201);
    const expected = createHash('sha256');
    for (const chunk of chunks) expected.update(chunk);
    const digest = expected.digest('hex');
    expect(await uploaded.json()).toMatchObject({ file_name: 'big.bin', size: 12 * 1024 * 1024, file_sha256: digest });
    const downloaded = await fetch(fileUrl, { headers: { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN } });
    expect(downloaded.status).toBe(200);
    const received = createHash('sha256');
    for await (const chunk of Readable.fromWeb(downloaded.body as import('node:stream/web').ReadableStream))
      received.update(chunk as Buffer);
    expect(received.digest('hex')).toBe(digest);
  });
});
