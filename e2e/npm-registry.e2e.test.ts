/**
 * The npm registry through the real gateway with the real npm CLI: publish with a developer's
 * token, refuse a version that exists, install into fresh directories through the project-level
 * and the instance-level registry URL, manage dist-tags, then read and delete the packages
 * through the Packages API.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { databaseUrlFor, type RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, testEnvironment, waitFor } from '@platform/testing';
import { createUserWithToken, createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';

/** The workspace's own npm CLI (a devDependency of e2e), run by the Node that runs the tests. */
const NPM_CLI = path.resolve(import.meta.dirname, 'node_modules/npm/bin/npm-cli.js');

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let packagesDb: pg.Client;
let work: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

interface NpmResult {
  code: number;
  output: string;
}

/** Runs npm in `cwd` with only the `.npmrc` given, never the host's configuration or cache. */
function npm(args: string[], options: { cwd: string; npmrc: string }): Promise<NpmResult> {
  const userconfig = path.join(options.cwd, '.npmrc');
  writeFileSync(userconfig, options.npmrc);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [NPM_CLI, ...args],
      {
        cwd: options.cwd,
        env: {
          PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
          HOME: work,
          npm_config_userconfig: userconfig,
          npm_config_globalconfig: path.join(work, 'no-global-npmrc'),
          npm_config_cache: path.join(work, 'npm-cache'),
          npm_config_audit: 'false',
          npm_config_fund: 'false',
          npm_config_update_notifier: 'false',
          npm_config_loglevel: 'warn',
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** npm's configuration for one registry URL: the scope's registry and the token for that URL. */
function npmrcFor(registryUrl: string, token: string): string {
  const withoutScheme = registryUrl.replace(/^https?:/, '');
  return `@acme:registry=${registryUrl}\n${withoutScheme}:_authToken=${token}\n`;
}

function packageDir(name: string, version: string): string {
  const dir = path.join(work, `${name.replace(/[@/]/g, '_')}-${version}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version, main: 'index.js', license: 'MIT' }));
  writeFileSync(path.join(dir, 'index.js'), `module.exports = ${JSON.stringify(version)};\n`);
  return dir;
}

function freshDir(name: string): string {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, version: '0.0.0', private: true }));
  return dir;
}

async function tokenOf(username: string, level: number | undefined, projectId: number): Promise<string> {
  const memberships = level === undefined ? [] : [{ projectId, accessLevel: level }];
  return (await createUserWithToken(gateway, username, { memberships })).token;
}

beforeAll(async () => {
  work = createWorkDir('npm');
  platform = await startTestPlatform({ services: ['identity', 'packages'] });
  gateway = request(platform.url);
  packagesDb = new pg.Client({ connectionString: databaseUrlFor(testEnvironment().postgresUrl, `${platform.databasePrefix}packages`) });
  await packagesDb.connect();
}, 180_000);

afterAll(async () => {
  await packagesDb?.end();
  await platform?.stop();
  removeWorkDir(work);
});

describe('the npm registry with the npm CLI', () => {
  let projectId: number;
  let projectRegistry: string;
  let developer: string;
  let reporter: string;
  let stranger: string;

  it('publishes a scoped package with a developer token, and refuses the same version again', async () => {
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Acme', path: 'acme', visibility: 'private' });
    expect(group.status).toBe(201);
    const project = await gateway
      .post('/api/v4/projects')
      .set(asRoot)
      .send({ name: 'Kit', path: 'kit', namespace_id: group.body.id, visibility: 'private' });
    expect(project.status).toBe(201);
    projectId = project.body.id as number;
    projectRegistry = `${platform.url}/api/v4/projects/${projectId}/packages/npm/`;
    developer = await tokenOf('npm-dev', 30, projectId);
    reporter = await tokenOf('npm-reporter', 20, projectId);
    stranger = await tokenOf('npm-stranger', undefined, projectId);

    const first = await npm(['publish'], { cwd: packageDir('@acme/kit', '1.0.0'), npmrc: npmrcFor(projectRegistry, developer) });
    expect(first).toMatchObject({ code: 0 });

    const again = await npm(['publish'], { cwd: packageDir('@acme/kit', '1.0.0'), npmrc: npmrcFor(projectRegistry, developer) });
    // npm refuses first when it sees the version in the registry's document; the server holds too (below).
    expect(again.code).not.toBe(0);
    expect(again.output).toMatch(/403|cannot publish over the previously published versions: 1\.0\.0/);

    const byReporter = await npm(['publish'], { cwd: packageDir('@acme/kit', '1.0.1'), npmrc: npmrcFor(projectRegistry, reporter) });
    expect(byReporter.code).not.toBe(0);
    expect(byReporter.output).toContain('403');

    const beta = await npm(['publish', '--tag', 'beta'], {
      cwd: packageDir('@acme/kit', '1.1.0'),
      npmrc: npmrcFor(projectRegistry, developer),
    });
    expect(beta).toMatchObject({ code: 0 });
  }, 120_000);

  it('refuses a replayed publish of an existing version with 403, whatever the client checks', async () => {
    const tarball = Buffer.from('not really a tarball');
    const replay = await gateway
      .put(`/api/v4/projects/${projectId}/packages/npm/@acme%2fkit`)
      .set('Authorization', `Bearer ${developer}`)
      .send({
        name: '@acme/kit',
        versions: { '1.0.0': { name: '@acme/kit', version: '1.0.0' } },
        _attachments: { 'kit-1.0.0.tgz': { data: tarball.toString('base64'), length: tarball.length } },
        'dist-tags': { latest: '1.0.0' },
      });
    expect(replay.status).toBe(403);
    expect(replay.body).toEqual({ message: '403 Forbidden - Package already exists: @acme/kit@1.0.0' });
  });

  it('installs into a fresh directory through the project-level registry with a reporter token', async () => {
    const dir = freshDir('project-level');
    const installed = await npm(['install', '@acme/kit'], { cwd: dir, npmrc: npmrcFor(projectRegistry, reporter) });
    expect(installed).toMatchObject({ code: 0 });
    expect(JSON.parse(readFileSync(path.join(dir, 'node_modules/@acme/kit/package.json'), 'utf8')).version).toBe('1.0.0');
    const beta = await npm(['install', '@acme/kit@beta'], { cwd: dir, npmrc: npmrcFor(projectRegistry, reporter) });
    expect(beta).toMatchObject({ code: 0 });
    expect(readFileSync(path.join(dir, 'node_modules/@acme/kit/index.js'), 'utf8')).toContain('1.1.0');

    const refused = await npm(['install', '@acme/kit'], { cwd: freshDir('stranger'), npmrc: npmrcFor(projectRegistry, stranger) });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('404');
  }, 120_000);

  it('installs through the instance-level registry, finding the project by the scope', async () => {
    const dir = freshDir('instance-level');
    const installed = await npm(['install', '@acme/kit@1.0.0'], {
      cwd: dir,
      npmrc: npmrcFor(`${platform.url}/api/v4/packages/npm/`, reporter),
    });
    expect(installed).toMatchObject({ code: 0 });
    expect(JSON.parse(readFileSync(path.join(dir, 'node_modules/@acme/kit/package.json'), 'utf8')).version).toBe('1.0.0');
  }, 120_000);

  it('adds, lists and removes dist-tags', async () => {
    const dir = freshDir('tags');
    const asDeveloper = { cwd: dir, npmrc: npmrcFor(projectRegistry, developer) };
    const listed = await npm(['dist-tag', 'ls', '@acme/kit'], asDeveloper);
    expect(listed.code).toBe(0);
    expect(listed.output).toContain('beta: 1.1.0');
    expect(listed.output).toContain('latest: 1.0.0');

    expect(await npm(['dist-tag', 'add', '@acme/kit@1.1.0', 'stable'], asDeveloper)).toMatchObject({ code: 0 });
    expect((await npm(['dist-tag', 'ls', '@acme/kit'], asDeveloper)).output).toContain('stable: 1.1.0');

    // Removing a tag is a deletion: maintainers and above, as GitLab has it.
    const byDeveloper = await npm(['dist-tag', 'rm', '@acme/kit', 'stable'], asDeveloper);
    expect(byDeveloper.code).not.toBe(0);
    expect(
      await npm(['dist-tag', 'rm', '@acme/kit', 'stable'], { cwd: dir, npmrc: npmrcFor(projectRegistry, E2E_ROOT_TOKEN) }),
    ).toMatchObject({
      code: 0,
    });
    const after = await npm(['dist-tag', 'ls', '@acme/kit'], asDeveloper);
    expect(after.output).not.toContain('stable');
  }, 120_000);

  it('shows the packages in the Packages API, with their files and digests, and deletes one', async () => {
    const listed = await gateway.get(`/api/v4/projects/${projectId}/packages`).set('PRIVATE-TOKEN', reporter);
    expect(listed.status).toBe(200);
    expect(gitlabSchemaErrors('packages/packages.json', listed.body)).toEqual([]);
    expect(listed.body.map((item: { version: string }) => item.version)).toEqual(['1.0.0', '1.1.0']);
    expect(listed.body[0]).toMatchObject({ name: '@acme/kit', package_type: 'npm', pipelines: [] });
    expect(listed.body[0]._links.web_path).toBe(`/acme/kit/-/packages/${listed.body[0].id}`);
    expect(listed.body[0]._links.delete_api_path).toBeUndefined();

    const group = await gateway
      .get('/api/v4/groups/acme/packages')
      .query({ order_by: 'version', sort: 'desc' })
      .set('PRIVATE-TOKEN', reporter);
    expect(group.status).toBe(200);
    expect(gitlabSchemaErrors('packages/group_packages.json', group.body)).toEqual([]);
    expect(group.body.map((item: { version: string }) => item.version)).toEqual(['1.1.0', '1.0.0']);
    expect(group.body[0]).toMatchObject({ project_id: projectId, project_path: 'acme/kit' });

    const newer = listed.body[1] as { id: number };
    const single = await gateway.get(`/api/v4/projects/${projectId}/packages/${newer.id}`).set(asRoot);
    expect(single.status).toBe(200);
    expect(gitlabSchemaErrors('packages/package.json', single.body, { optional: ['pipeline'] })).toEqual([]);
    expect(single.body.versions.map((version: { version: string }) => version.version)).toEqual(['1.0.0']);
    expect(single.body._links.delete_api_path).toBe(`${platform.url}/api/v4/projects/${projectId}/packages/${newer.id}`);

    const files = await gateway.get(`/api/v4/projects/${projectId}/packages/${newer.id}/package_files`).set('PRIVATE-TOKEN', reporter);
    expect(files.status).toBe(200);
    expect(gitlabSchemaErrors('packages/package_files.json', files.body)).toEqual([]);
    expect(files.body[0]).toMatchObject({ file_name: '@acme/kit-1.1.0.tgz', package_id: newer.id });
    expect(files.body[0].size).toBeGreaterThan(0);
    expect(files.body[0].file_md5).toMatch(/^[0-9a-f]{32}$/);
    expect(files.body[0].file_sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(files.body[0].file_sha256).toMatch(/^[0-9a-f]{64}$/);

    expect((await gateway.delete(`/api/v4/projects/${projectId}/packages/${newer.id}`).set('PRIVATE-TOKEN', developer)).status).toBe(403);
    expect((await gateway.delete(`/api/v4/projects/${projectId}/packages/${newer.id}`).set(asRoot)).status).toBe(204);
    expect((await gateway.delete(`/api/v4/projects/${projectId}/packages/${newer.id}`).set(asRoot)).status).toBe(404);
    const tarball = await gateway.get(`/api/v4/projects/${projectId}/packages/npm/@acme%2fkit/-/kit-1.1.0.tgz`).set(asRoot);
    expect(tarball.status).toBe(404);
    const stillThere = await gateway.get(`/api/v4/projects/${projectId}/packages/npm/@acme%2fkit/-/kit-1.0.0.tgz`).set(asRoot);
    expect(stillThere.status).toBe(200);
    expect(stillThere.headers['content-type']).toBe('application/octet-stream');
    const byStoredName = await gateway
      .get(`/api/v4/projects/${projectId}/packages/npm/@acme%2fkit/-/${encodeURIComponent('@acme/kit-1.0.0.tgz')}`)
      .set(asRoot);
    expect(byStoredName.status).toBe(200);
    expect(byStoredName.body).toEqual(stillThere.body);
  }, 60_000);

  it('records the publications and the deletion in the outbox', async () => {
    const types = await waitFor(async () => {
      const { rows } = await packagesDb.query<{ type: string }>("select envelope->>'type' as type from outbox order by id");
      return rows.length >= 3 ? rows.map((row) => row.type) : undefined;
    });
    expect(types).toEqual(['packages.package.published', 'packages.package.published', 'packages.package.deleted']);
  });
});

describe('deprecating and unpublishing with the npm CLI', () => {
  let projectId: number;
  let registry: string;
  let developer: string;
  const asRootNpm = () => ({ cwd: freshDir('maintenance'), npmrc: npmrcFor(registry, E2E_ROOT_TOKEN) });
  const documentOf = async () => gateway.get(`/api/v4/projects/${projectId}/packages/npm/@acme%2ftool`).set(asRoot);

  beforeAll(async () => {
    const group = await gateway.get('/api/v4/groups/acme').set(asRoot);
    const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Tool', path: 'tool', namespace_id: group.body.id });
    expect(project.status).toBe(201);
    projectId = project.body.id as number;
    registry = `${platform.url}/api/v4/projects/${projectId}/packages/npm/`;
    developer = await tokenOf('npm-tool-dev', 30, projectId);
    for (const version of ['1.0.0', '2.0.0']) {
      const published = await npm(['publish'], { cwd: packageDir('@acme/tool', version), npmrc: npmrcFor(registry, developer) });
      expect(published).toMatchObject({ code: 0 });
    }
  }, 120_000);

  it('deprecates a version and takes it back, maintainers only', async () => {
    const byDeveloper = await npm(['deprecate', '@acme/tool@1.0.0', 'use 2.0.0'], {
      cwd: freshDir('deprecate-dev'),
      npmrc: npmrcFor(registry, developer),
    });
    expect(byDeveloper.code).not.toBe(0);
    expect(byDeveloper.output).toContain('403');
    expect((await documentOf()).body.versions['1.0.0'].deprecated).toBeUndefined();

    expect(await npm(['deprecate', '@acme/tool@1.0.0', 'use 2.0.0'], asRootNpm())).toMatchObject({ code: 0 });
    const deprecated = (await documentOf()).body;
    expect(deprecated.versions['1.0.0'].deprecated).toBe('use 2.0.0');
    expect(deprecated.versions['2.0.0'].deprecated).toBeUndefined();
    const installed = await npm(['install', '@acme/tool@1.0.0'], {
      cwd: freshDir('deprecated-install'),
      npmrc: npmrcFor(registry, developer),
    });
    expect(installed.code).toBe(0);
    expect(installed.output).toContain('deprecated');

    expect(await npm(['deprecate', '@acme/tool@1.0.0', ''], asRootNpm())).toMatchObject({ code: 0 });
    expect((await documentOf()).body.versions['1.0.0'].deprecated).toBeUndefined();
  }, 120_000);

  it('unpublishes one version, then the whole package, maintainers only', async () => {
    expect(await npm(['unpublish', '@acme/tool@1.0.0'], asRootNpm())).toMatchObject({ code: 0 });
    const left = (await documentOf()).body;
    expect(Object.keys(left.versions)).toEqual(['2.0.0']);
    expect(left['dist-tags']).toEqual({ latest: '2.0.0' });
    const tarball = await gateway.get(`/api/v4/projects/${projectId}/packages/npm/@acme%2ftool/-/tool-1.0.0.tgz`).set(asRoot);
    expect(tarball.status).toBe(404);

    const byDeveloper = await npm(['unpublish', '@acme/tool', '--force'], {
      cwd: freshDir('unpublish-dev'),
      npmrc: npmrcFor(registry, developer),
    });
    expect(byDeveloper.code).not.toBe(0);
    expect((await documentOf()).status).toBe(200);

    expect(await npm(['unpublish', '@acme/tool', '--force'], asRootNpm())).toMatchObject({ code: 0 });
    expect((await documentOf()).status).toBe(404);
    const listed = await gateway.get(`/api/v4/projects/${projectId}/packages`).set(asRoot);
    expect(listed.body).toEqual([]);
    const { rows } = await packagesDb.query<{ version: string }>(
      "select envelope->'data'->>'version' as version from outbox where envelope->>'type' = 'packages.package.deleted' and envelope->>'aggregateId' = $1 order by id",
      [String(projectId)],
    );
    expect(rows.map((row) => row.version)).toEqual(['1.0.0', '2.0.0']);
  }, 120_000);
});
