/**
 * Generic packages against real PostgreSQL and Kafka (identity's access answers come from a fake):
 * a multi-megabyte file streamed in and back byte for byte, `select=package_file`, `status`,
 * files under directories, a file name uploaded twice, GitLab's name, version and path rules,
 * and the packages in the Packages API.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { packagesService } from '../../main.ts';

const developer = userCaller(21, 'developer');
const reporter = userCaller(22, 'reporter');
const stranger = userCaller(23, 'stranger');
const access = new FakeIdentityAccess().add({ resource: 'project', id: 7, path: 'acme/app', levels: { 21: 30, 22: 20 } });
let harness: ServiceHarness<RunningService>;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'generic-packages-'));
  harness = await startServiceHarness({
    label: 'generic_packages',
    env: { KAFKA_TOPIC_PREFIX: `generic-packages-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(packagesService(readConfig(env), { identityAccess: access })),
  });
});

afterAll(async () => {
  await harness?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const filePath = (name: string, version: string, file: string) => `/api/v4/projects/7/packages/generic/${name}/${version}/${file}`;

/** The response's bytes, whatever its type. */
const bytes = (response: Response) => response.body as Buffer;
/** Reads the raw response (superagent hands the message stream over as its `Response`). */
const binary = (res: Response, done: (error: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('generic packages', () => {
  it('streams a multi-megabyte file in and back byte for byte, and lists the package as generic', async () => {
    const content = randomBytes(6 * 1024 * 1024 + 17);
    const uploaded = await harness.api
      .put(filePath('release-tools', '1.2.3', 'tools.tar.gz'))
      .set(harness.as(developer))
      .set('Content-Type', 'application/octet-stream')
      .send(content);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toEqual({ message: '201 Created' });

    const downloaded = await harness.api
      .get(filePath('release-tools', '1.2.3', 'tools.tar.gz'))
      .set(harness.as(reporter))
      .buffer(true)
      .parse(binary);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers['content-disposition']).toContain('attachment; filename="tools.tar.gz"');
    const sha256 = createHash('sha256').update(content).digest('hex');
    expect(downloaded.headers['x-checksum-sha256']).toBe(sha256);
    expect(bytes(downloaded).equals(content)).toBe(true);

    const listed = await harness.api.get('/api/v4/projects/7/packages?package_type=generic').set(harness.as(reporter));
    expect(listed.body).toEqual([
      expect.objectContaining({ name: 'release-tools', version: '1.2.3', package_type: 'generic', status: 'default' }),
    ]);
    const files = await harness.api.get(`/api/v4/projects/7/packages/${listed.body[0].id}/package_files`).set(harness.as(reporter));
    expect(files.body).toEqual([expect.objectContaining({ file_name: 'tools.tar.gz', size: content.length, file_sha256: sha256 })]);
  });

  it('answers the package file with select=package_file, and keeps a hidden package out of the lists but downloadable', async () => {
    const selected = await harness.api
      .put(`${filePath('hidden-tool', '0.1.0-beta+1', 'notes.txt')}?select=package_file&status=hidden`)
      .set(harness.as(developer))
      .send(Buffer.from('release notes'));
    expect(selected.status).toBe(201);
    expect(selected.body).toMatchObject({
      id: expect.any(Number),
      package_id: expect.any(Number),
      size: 13,
      file_name: 'notes.txt',
      file_sha256: createHash('sha256').update('release notes').digest('hex'),
    });
    const listed = await harness.api.get('/api/v4/projects/7/packages?package_name=hidden-tool').set(harness.as(developer));
    expect(listed.body).toEqual([]);
    const downloaded = await harness.api
      .get(filePath('hidden-tool', '0.1.0-beta+1', 'notes.txt'))
      .set(harness.as(developer))
      .buffer(true)
      .parse(binary);
    expect(bytes(downloaded).toString()).toBe('release notes');

    // Uploaded again with the default status, the version is listed.
    await harness.api
      .put(`${filePath('hidden-tool', '0.1.0-beta+1', 'more.txt')}?status=default`)
      .set(harness.as(developer))
      .send(Buffer.from('x'));
    expect((await harness.api.get('/api/v4/projects/7/packages?package_name=hidden-tool').set(harness.as(developer))).body).toHaveLength(1);
  });

  it('files a file under directories by its escaped path, as GitLab names it, and serves it only at that path', async () => {
    const uploaded = await harness.api
      .put(`${filePath('docs', '1.0.0', 'my%20site/v(1)/notes~1.txt')}?select=package_file&status=hidden`)
      .set(harness.as(developer))
      .send(Buffer.from('nested'));
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ file_name: 'my%20site%2Fv%281%29%2Fnotes%7E1.txt', size: 6 });

    const downloaded = await harness.api
      .get(filePath('docs', '1.0.0', 'my%20site/v(1)/notes~1.txt'))
      .set(harness.as(reporter))
      .buffer(true)
      .parse(binary);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers['content-disposition']).toContain('attachment; filename="notes~1.txt"');
    expect(bytes(downloaded).toString()).toBe('nested');
    expect((await harness.api.get(filePath('docs', '1.0.0', 'notes~1.txt')).set(harness.as(reporter))).status).toBe(404);
    expect((await harness.api.get(filePath('docs', '1.0.0', 'my%20site/notes~1.txt')).set(harness.as(reporter))).status).toBe(404);
    // Hidden, as its first upload asked: out of the lists, still downloadable.
    expect((await harness.api.get('/api/v4/projects/7/packages?package_name=docs').set(harness.as(reporter))).body).toEqual([]);

    await harness.api
      .put(`${filePath('docs', '1.0.0', 'index.html')}?status=default`)
      .set(harness.as(developer))
      .send(Buffer.from('<html>'));
    const [listed] = (await harness.api.get('/api/v4/projects/7/packages?package_name=docs').set(harness.as(reporter))).body;
    const files = await harness.api.get(`/api/v4/projects/7/packages/${listed.id}/package_files`).set(harness.as(reporter));
    expect(files.body.map((file: { file_name: string }) => file.file_name)).toEqual(['my%20site%2Fv%281%29%2Fnotes%7E1.txt', 'index.html']);
  });

  it('keeps both files when a file name is uploaded again: downloads serve the newest, the package lists both', async () => {
    const first = await harness.api
      .put(`${filePath('nightly', '2.0.0', 'tool')}?select=package_file`)
      .set(harness.as(developer))
      .send(Buffer.from('first build'));
    const second = await harness.api
      .put(`${filePath('nightly', '2.0.0', 'tool')}?select=package_file`)
      .set(harness.as(developer))
      .send(Buffer.from('second'));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).toBeGreaterThan(first.body.id);
    expect(second.body).toMatchObject({ file_name: 'tool', size: 6, package_id: first.body.package_id });

    const downloaded = await harness.api
      .get(filePath('nightly', '2.0.0', 'tool'))
      .set(harness.as(reporter))
      .buffer(true)
      .parse(binary);
    expect(bytes(downloaded).toString()).toBe('second');
    const files = await harness.api.get(`/api/v4/projects/7/packages/${first.body.package_id}/package_files`).set(harness.as(reporter));
    expect(files.body).toEqual([
      expect.objectContaining({ id: first.body.id, file_name: 'tool', size: 11 }),
      expect.objectContaining({ id: second.body.id, file_name: 'tool', size: 6 }),
    ]);
  });

  it("accepts `~` inside a file name, as GitLab's file name rule does", async () => {
    const uploaded = await harness.api
      .put(`${filePath('tool', '1.0.0', 'tool~1.txt')}?select=package_file`)
      .set(harness.as(developer))
      .send(Buffer.from('x'));
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ file_name: 'tool~1.txt' });
  });

  it.each([
    ['bad name', filePath('bad%20name', '1.0.0', 'f.txt'), { error: 'package_name is invalid' }],
    ['a version with ..', filePath('tool', '1..0', 'f.txt'), { error: 'package_version is invalid' }],
    ['a file name with a space', filePath('tool', '1.0.0', 'my%20file.txt'), { error: 'file_name is invalid' }],
    ['a file name ending in ~', filePath('tool', '1.0.0', 'f.txt~'), { error: 'file_name is invalid' }],
    ['directories that climb out', filePath('tool', '1.0.0', 'a/..%5Cb/f.txt'), { error: 'path should be a valid file path' }],
    ['directories encoded twice', filePath('tool', '1.0.0', '%252E%252E/f.txt'), { error: 'path should be a valid file path' }],
    ['a path from the root', `${filePath('tool', '1.0.0', 'f.txt')}?path=/etc`, { error: 'path should be a valid file path' }],
    ['an unknown status', `${filePath('tool', '1.0.0', 'f.txt')}?status=processing`, { error: 'status does not have a valid value' }],
  ])('refuses %s as GitLab does', async (_, url, error) => {
    const response = await harness.api.put(url).set(harness.as(developer)).send(Buffer.from('x'));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error);
  });

  it('lets developers upload and reporters download: 403 for a reporter upload, 404 for strangers and unknown files', async () => {
    expect(
      (
        await harness.api
          .put(filePath('tool', '1.0.0', 'f.txt'))
          .set(harness.as(reporter))
          .send(Buffer.from('x'))
      ).status,
    ).toBe(403);
    expect((await harness.api.get(filePath('release-tools', '1.2.3', 'tools.tar.gz')).set(harness.as(stranger))).status).toBe(404);
    expect((await harness.api.get(filePath('release-tools', '1.2.3', 'other.bin')).set(harness.as(reporter))).status).toBe(404);
    expect((await harness.api.get(filePath('release-tools', '9.9.9', 'tools.tar.gz')).set(harness.as(reporter))).status).toBe(404);
  });
});
