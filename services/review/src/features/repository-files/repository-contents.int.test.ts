/**
 * The repository API's content reads (files, tree, blobs, archives) against real PostgreSQL, Kafka
 * and a repository on disk that git pushes to; identity's access answers come from a fake.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';
import { runGit } from '../repositories/git-command.ts';
import { hashedDiskPath } from '../repositories/repository-storages.ts';

const reporter = userCaller(41, 'reporter');
const guest = userCaller(42, 'guest');
const stranger = userCaller(43, 'stranger');
const access = new FakeIdentityAccess().add({ resource: 'project', id: 7, path: 'acme/app', levels: { 41: 20, 42: 10 } });
let harness: ServiceHarness<RunningService>;
let dataDir: string;
let work: string;
let first: string;
let head: string;
const large = Buffer.alloc(24 * 1024 * 1024, 'abcdefghijklmnopqrstuvwxyz\n');
const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0xff]);

const get = (url: string) =>
  harness.api
    .get(url)
    .set(harness.as(reporter))
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
type Response = Awaited<ReturnType<typeof get>>;
const json = (response: Response) => JSON.parse((response.body as Buffer).toString('utf8')) as Record<string, unknown>;
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'review-contents-'));
  harness = await startServiceHarness({
    label: 'review_contents',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users: new FixedUserDirectory([]) })),
  });
  expect((await harness.api.get('/api/v4/projects/7/repository/branches').set(harness.as(reporter))).status).toBe(200);
  work = path.join(dataDir, 'work');
  await runGit(['init', '--quiet', '--initial-branch=main', work]);
  const identity = ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com'];
  const commitAll = async (message: string) => {
    await runGit(['-C', work, 'add', '-A']);
    await runGit(['-C', work, ...identity, 'commit', '--quiet', '-m', message]);
    return (await runGit(['-C', work, 'rev-parse', 'HEAD'])).stdout.trim();
  };
  await mkdir(path.join(work, 'lib', 'deep'), { recursive: true });
  await writeFile(path.join(work, 'README.md'), 'hello\n');
  await writeFile(path.join(work, 'lib', 'class.rb'), 'class A\nend\n');
  first = await commitAll('First');
  await writeFile(path.join(work, 'lib', 'class.rb'), 'class A\n  def b; end\nend\n');
  await writeFile(path.join(work, 'lib', 'deep', 'ü b.txt'), 'umlaut\n');
  await writeFile(path.join(work, 'run.sh'), '#!/bin/sh\n');
  await chmod(path.join(work, 'run.sh'), 0o755);
  await writeFile(path.join(work, 'image.png'), binary);
  await writeFile(path.join(work, 'large.txt'), large);
  head = await commitAll('Second\n\nTrailer-less body');
  await runGit(['-C', work, 'push', '--quiet', path.join(dataDir, 'repositories', hashedDiskPath(7)), 'main']);
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('GET /projects/:id/repository/files/:file_path', () => {
  it('answers the file at a ref with base64 content and GitLab fields, and the same as X-Gitlab headers', async () => {
    const response = await get('/api/v4/projects/7/repository/files/lib%2Fclass%2Erb?ref=main');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const content = 'class A\n  def b; end\nend\n';
    const blobId = (await runGit(['-C', work, 'rev-parse', 'HEAD:lib/class.rb'])).stdout.trim();
    expect(json(response)).toEqual({
      file_name: 'class.rb',
      file_path: 'lib/class.rb',
      size: content.length,
      encoding: 'base64',
      content_sha256: sha256(content),
      ref: 'main',
      blob_id: blobId,
      commit_id: head,
      last_commit_id: head,
      execute_filemode: false,
      content: Buffer.from(content).toString('base64'),
    });
    expect(response.headers).toMatchObject({
      'x-gitlab-blob-id': blobId,
      'x-gitlab-file-path': 'lib/class.rb',
      'x-gitlab-size': String(content.length),
    });

    const older = json(await get(`/api/v4/projects/7/repository/files/README.md?ref=${head}`));
    expect(older).toMatchObject({ commit_id: head, last_commit_id: first });
    expect(json(await get('/api/v4/projects/7/repository/files/run.sh?ref=main'))).toMatchObject({ execute_filemode: true });
    expect(json(await get(`/api/v4/projects/7/repository/files/${encodeURIComponent('lib/deep/ü b.txt')}?ref=main`))).toMatchObject({
      file_name: 'ü b.txt',
      content: Buffer.from('umlaut\n').toString('base64'),
    });
  });

  it('answers HEAD with the headers only', async () => {
    const response = await harness.api.head('/api/v4/projects/7/repository/files/README.md?ref=main').set(harness.as(reporter));
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'x-gitlab-file-name': 'README.md',
      'x-gitlab-commit-id': head,
      'x-gitlab-last-commit-id': first,
    });
    expect(response.text ?? '').toBe('');
  });

  it('streams a large file as base64 and serves binary content exactly', async () => {
    const response = await get('/api/v4/projects/7/repository/files/large.txt?ref=main');
    expect(response.status).toBe(200);
    const body = json(response);
    expect(body.size).toBe(large.length);
    expect(body.content_sha256).toBe(sha256(large));
    expect(sha256(Buffer.from(body.content as string, 'base64'))).toBe(sha256(large));
    expect(Buffer.from(json(await get('/api/v4/projects/7/repository/files/image.png?ref=main')).content as string, 'base64')).toEqual(
      binary,
    );
  }, 60_000);

  it('refuses paths outside the tree, refs that are options and missing refs with 400s, and answers 404s as GitLab', async () => {
    const refused = async (url: string) => {
      const response = await get(url);
      return { status: response.status, body: json(response) };
    };
    expect(await refused('/api/v4/projects/7/repository/files/..%2F..%2Fetc%2Fpasswd?ref=main')).toEqual({
      status: 400,
      body: { error: 'file_path should be a valid file path' },
    });
    expect(
      await refused(`/api/v4/projects/7/repository/files/README.md?ref=${encodeURIComponent('--upload-pack=touch /tmp/owned')}`),
    ).toEqual({
      status: 400,
      body: { error: 'ref is invalid' },
    });
    expect(await refused('/api/v4/projects/7/repository/files/README.md')).toEqual({ status: 400, body: { error: 'ref is missing' } });
    expect(await refused('/api/v4/projects/7/repository/files/README.md?ref=nope')).toEqual({
      status: 404,
      body: { message: '404 Commit Not Found' },
    });
    expect(await refused('/api/v4/projects/7/repository/files/nope.md?ref=main')).toEqual({
      status: 404,
      body: { message: '404 File Not Found' },
    });
    expect(await refused('/api/v4/projects/7/repository/files/lib?ref=main')).toEqual({
      status: 404,
      body: { message: '404 File Not Found' },
    });
  });

  it('lets reporters read a private project, not guests or strangers', async () => {
    expect((await harness.api.get('/api/v4/projects/7/repository/files/README.md?ref=main').set(harness.as(guest))).status).toBe(403);
    expect((await harness.api.get('/api/v4/projects/7/repository/files/README.md?ref=main').set(harness.as(stranger))).status).toBe(404);
    expect((await harness.api.get('/api/v4/projects/7/repository/tree').set(harness.as(guest))).status).toBe(403);
    expect((await harness.api.get('/api/v4/projects/7/repository/archive').set(harness.as(stranger))).status).toBe(404);
  });

  it("lets a read_repository token read files, blame and raw, as GitLab's files API does, and nothing else of the API", async () => {
    const cloner = harness.as({ ...reporter, scopes: ['read_repository'] });
    for (const path of ['README.md?ref=main', 'README.md/raw?ref=main', 'README.md/blame?ref=main']) {
      expect((await harness.api.get(`/api/v4/projects/7/repository/files/${path}`).set(cloner)).status).toBe(200);
    }
    const tree = await harness.api.get('/api/v4/projects/7/repository/tree').set(cloner);
    expect(tree.status).toBe(403);
    expect(tree.body).toMatchObject({ error: 'insufficient_scope' });
    const userToken = harness.as({ ...reporter, scopes: ['read_user'] });
    expect((await harness.api.get('/api/v4/projects/7/repository/files/README.md?ref=main').set(userToken)).status).toBe(403);
  });
});

describe('GET /projects/:id/repository/files/:file_path/raw and /blame', () => {
  it('answers raw bytes typed as text or binary, the ref defaulting to the default branch', async () => {
    const text = await get('/api/v4/projects/7/repository/files/lib%2Fclass.rb/raw');
    expect(text.status).toBe(200);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((text.body as Buffer).toString()).toBe('class A\n  def b; end\nend\n');
    expect(text.headers['x-gitlab-commit-id']).toBe(head);
    const image = await get(`/api/v4/projects/7/repository/files/image.png/raw?ref=${head}&lfs=true`);
    expect(image.headers['content-type']).toBe('application/octet-stream');
    expect(image.body).toEqual(binary);
    const big = await get('/api/v4/projects/7/repository/files/large.txt/raw?ref=main');
    expect(sha256(big.body as Buffer)).toBe(sha256(large));
  }, 60_000);

  it('blames a file in ranges of consecutive lines per commit, within range[start] and range[end]', async () => {
    const response = await get('/api/v4/projects/7/repository/files/lib%2Fclass.rb/blame?ref=main');
    expect(response.status).toBe(200);
    const ranges = JSON.parse((response.body as Buffer).toString()) as Array<{ commit: Record<string, unknown>; lines: string[] }>;
    expect(ranges.map((range) => [range.commit.id, range.lines])).toEqual([
      [first, ['class A']],
      [head, ['  def b; end']],
      [first, ['end']],
    ]);
    expect(ranges[1]?.commit).toMatchObject({ message: 'Second\n\nTrailer-less body\n', parent_ids: [first], author_name: 'Ada' });
    const ranged = await get('/api/v4/projects/7/repository/files/lib%2Fclass.rb/blame?ref=main&range[start]=2&range[end]=9');
    expect(JSON.parse((ranged.body as Buffer).toString())).toHaveLength(2);
    expect((await get('/api/v4/projects/7/repository/files/lib%2Fclass.rb/blame?ref=main&range[start]=9&range[end]=10')).status).toBe(400);
    const backwards = await get('/api/v4/projects/7/repository/files/lib%2Fclass.rb/blame?ref=main&range[start]=3&range[end]=1');
    expect([backwards.status, json(backwards)]).toEqual([400, { error: 'range[start] must be less than or equal to range[end]' }]);
    expect((await get('/api/v4/projects/7/repository/files/large.txt/blame?ref=main')).status).toBe(400);
  });
});

describe('GET /projects/:id/repository/tree', () => {
  it('lists a level trees first, a path, recursively, with offset and keyset pages', async () => {
    const names = (response: Response) =>
      (JSON.parse((response.body as Buffer).toString()) as Array<{ path: string }>).map((entry) => entry.path);
    const top = await get('/api/v4/projects/7/repository/tree');
    expect(names(top)).toEqual(['lib', 'README.md', 'image.png', 'large.txt', 'run.sh']);
    expect(top.headers['x-total']).toBe('5');
    const entry = (JSON.parse((top.body as Buffer).toString()) as Array<Record<string, unknown>>)[0];
    expect(entry).toEqual({ id: expect.stringMatching(/^[0-9a-f]{40}$/), name: 'lib', type: 'tree', path: 'lib', mode: '040000' });
    const atFirst = await get(`/api/v4/projects/7/repository/tree?path=lib&ref=${first}`);
    expect([atFirst.status, (atFirst.body as Buffer).toString()]).toEqual([200, expect.stringContaining('lib/class.rb')]);
    expect(names(atFirst)).toEqual(['lib/class.rb']);
    expect(names(await get('/api/v4/projects/7/repository/tree?path=lib&recursive=true'))).toEqual([
      'lib/class.rb',
      'lib/deep',
      'lib/deep/ü b.txt',
    ]);
    const second = await get('/api/v4/projects/7/repository/tree?recursive=true&per_page=2&page=2');
    // Git's order: by name, a tree's entries right after it, capitals first.
    expect(names(second)).toEqual(['large.txt', 'lib']);
    expect(second.headers['x-total']).toBe('8');

    const firstPage = await get('/api/v4/projects/7/repository/tree?recursive=true&pagination=keyset&per_page=3');
    expect(names(firstPage)).toEqual(['README.md', 'image.png', 'large.txt']);
    const next = /<([^>]+)>; rel="next"/.exec(String(firstPage.headers.link))?.[1] ?? '';
    expect(names(await get(new URL(next).pathname + new URL(next).search))).toEqual(['lib', 'lib/class.rb', 'lib/deep']);
    expect(names(await get('/api/v4/projects/7/repository/tree?recursive=true&pagination=none'))).toHaveLength(8);
  });

  it('answers 404 Tree Not Found for unknown refs and paths, and 400 for paths outside the tree', async () => {
    for (const query of ['ref=nope', 'path=nope', 'path=README.md']) {
      const response = await get(`/api/v4/projects/7/repository/tree?${query}`);
      expect([response.status, json(response)]).toEqual([404, { message: '404 Tree Not Found' }]);
    }
    expect((await get('/api/v4/projects/7/repository/tree?path=..%2F..')).status).toBe(400);
    expect((await get('/api/v4/projects/7/repository/tree?ref=--output%3D%2Ftmp%2Fx')).status).toBe(400);
    expect((await get('/api/v4/projects/7/repository/tree?pagination=none')).status).toBe(400);
  });
});

describe('GET /projects/:id/repository/blobs/:sha', () => {
  it('answers a blob as base64 and raw, and 404 Blob Not Found for anything else', async () => {
    const blobId = (await runGit(['-C', work, 'rev-parse', 'HEAD:image.png'])).stdout.trim();
    expect(json(await get(`/api/v4/projects/7/repository/blobs/${blobId}`))).toEqual({
      size: binary.length,
      encoding: 'base64',
      sha: blobId,
      content: binary.toString('base64'),
    });
    const raw = await get(`/api/v4/projects/7/repository/blobs/${blobId}/raw`);
    expect([raw.headers['content-type'], raw.body]).toEqual(['application/octet-stream', binary]);
    for (const sha of [head, 'f'.repeat(40), 'main']) {
      const response = await get(`/api/v4/projects/7/repository/blobs/${sha}`);
      expect([response.status, json(response)]).toEqual([404, { message: '404 Blob Not Found' }]);
    }
    expect((await get('/api/v4/projects/7/repository/blobs/--all')).status).toBe(400);
  });
});

describe('GET /projects/:id/repository/archive', () => {
  it('streams every format GitLab serves, named and prefixed as GitLab names them', async () => {
    const magic: Array<[string, string, (data: Buffer) => boolean]> = [
      ['', 'tar.gz', (data) => data[0] === 0x1f && data[1] === 0x8b],
      ['.tar.gz', 'tar.gz', (data) => data[0] === 0x1f && data[1] === 0x8b],
      ['.tgz', 'tar.gz', (data) => data[0] === 0x1f && data[1] === 0x8b],
      ['.gz', 'tar.gz', (data) => data[0] === 0x1f && data[1] === 0x8b],
      ['.zip', 'zip', (data) => data.subarray(0, 2).toString() === 'PK'],
      ['.tar', 'tar', (data) => data.subarray(257, 262).toString() === 'ustar'],
      ['.tar.bz2', 'tar.bz2', (data) => data.subarray(0, 3).toString() === 'BZh'],
      ['.tbz', 'tar.bz2', (data) => data.subarray(0, 3).toString() === 'BZh'],
      ['.tbz2', 'tar.bz2', (data) => data.subarray(0, 3).toString() === 'BZh'],
      ['.tb2', 'tar.bz2', (data) => data.subarray(0, 3).toString() === 'BZh'],
      ['.bz2', 'tar.bz2', (data) => data.subarray(0, 3).toString() === 'BZh'],
    ];
    for (const [suffix, extension, isArchive] of magic) {
      // The first commit, without the large file: eleven archives of it would take long to compress.
      const response = await get(`/api/v4/projects/7/repository/archive${suffix}?sha=${first}`);
      expect([suffix, response.status]).toEqual([suffix, 200]);
      expect(response.headers['content-disposition']).toBe(`attachment; filename="app-${first}-${first}.${extension}"`);
      expect(isArchive(response.body as Buffer)).toBe(true);
    }
    const tar = await get(`/api/v4/projects/7/repository/archive.tar?sha=${first}&path=lib`);
    expect(tar.headers['content-disposition']).toBe(`attachment; filename="app-${first}-${first}-lib.tar"`);
    const prefix = `app-${first}-${first}-lib`;
    expect(
      execFileSync('tar', ['-t'], { input: tar.body as Buffer, encoding: 'utf8' })
        .split('\n')
        .filter(Boolean),
    ).toEqual([`${prefix}/`, `${prefix}/lib/`, `${prefix}/lib/class.rb`]);
    const zip = await get('/api/v4/projects/7/repository/archive?format=zip');
    expect([zip.headers['content-type'], zip.headers['content-disposition']]).toEqual([
      'application/zip',
      `attachment; filename="app-main-${head}.zip"`,
    ]);
  }, 60_000);

  it('answers 404 File Not Found for unknown commits and paths, 400 for options and paths outside the tree', async () => {
    for (const query of ['sha=nope', 'path=nope']) {
      const response = await get(`/api/v4/projects/7/repository/archive.zip?${query}`);
      expect([response.status, json(response)]).toEqual([404, { message: '404 File Not Found' }]);
    }
    expect((await get('/api/v4/projects/7/repository/archive?sha=--remote%3Dx')).status).toBe(400);
    expect((await get('/api/v4/projects/7/repository/archive?path=..%2Fx')).status).toBe(400);
  });
});
