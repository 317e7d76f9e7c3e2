/**
 * The Maven repository through the real gateway with the machine's `mvn`: `mvn deploy` of a small
 * library to a project with a developer's token (a `Private-Token` header in settings.xml, as
 * GitLab documents), then a build depending on it that resolves it through the group-level
 * repository, checksums and all, and the package as the Packages API shows it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors } from '@platform/testing';
import { createUserWithToken, createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';
import { REPOSITORY_ROOT } from './route-catalogue.ts';

/** Maven Central's plugins are kept between runs; the library deployed here never is (its group id is new each run). */
const MAVEN_LOCAL_REPOSITORY = path.join(REPOSITORY_ROOT, '.cache/maven-e2e-repository');
const GROUP_ID = `com.example.e2e${randomBytes(4).toString('hex')}`;

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

function mvn(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      'mvn',
      ['-B', '-ntp', `-Dmaven.repo.local=${MAVEN_LOCAL_REPOSITORY}`, ...args],
      { cwd, env: { PATH: process.env.PATH, HOME: work, JAVA_HOME: process.env.JAVA_HOME }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
          reject(new Error('mvn is not installed: apt-get install maven'));
          return;
        }
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** settings.xml sending the token as GitLab's documentation has it: a `Private-Token` header for the server id. */
function settingsWith(token: string): string {
  const file = path.join(work, `settings-${randomBytes(4).toString('hex')}.xml`);
  writeFileSync(
    file,
    `<settings><servers><server><id>platform</id><configuration><httpHeaders><property>
       <name>Private-Token</name><value>${token}</value>
     </property></httpHeaders></configuration></server></servers></settings>`,
  );
  return file;
}

function mavenProject(options: { dir: string; artifactId: string; extra: string; source: { file: string; code: string } }): void {
  mkdirSync(path.join(options.dir, 'src/main/java/example'), { recursive: true });
  writeFileSync(
    path.join(options.dir, 'pom.xml'),
    `<project xmlns="http://maven.apache.org/POM/4.0.0">
       <modelVersion>4.0.0</modelVersion>
       <groupId>${GROUP_ID}</groupId>
       <artifactId>${options.artifactId}</artifactId>
       <version>1.0.0</version>
       <packaging>jar</packaging>
       <properties>
         <maven.compiler.source>17</maven.compiler.source>
         <maven.compiler.target>17</maven.compiler.target>
         <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
       </properties>
       ${options.extra}
     </project>`,
  );
  writeFileSync(path.join(options.dir, 'src/main/java/example', options.source.file), options.source.code);
}

async function tokenOf(username: string, level: number, projectId: number): Promise<string> {
  return (await createUserWithToken(gateway, username, { memberships: [{ projectId, accessLevel: level }] })).token;
}

beforeAll(async () => {
  work = createWorkDir('maven');
  await mvn(['--version'], work);
  platform = await startTestPlatform({ services: ['identity', 'packages'] });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
  rmSync(path.join(MAVEN_LOCAL_REPOSITORY, ...GROUP_ID.split('.')), { recursive: true, force: true });
});

describe('the Maven repository with mvn', () => {
  let groupId: number;
  let projectId: number;
  let developer: string;
  let reporter: string;

  it('deploys a library with a developer token', async () => {
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Maven shop', path: 'maven-shop', visibility: 'private' });
    expect(group.status).toBe(201);
    groupId = group.body.id as number;
    const project = await gateway
      .post('/api/v4/projects')
      .set(asRoot)
      .send({ name: 'Greeter', path: 'greeter', namespace_id: groupId, visibility: 'private' });
    expect(project.status).toBe(201);
    projectId = project.body.id as number;
    developer = await tokenOf('mvn-dev', 30, projectId);
    reporter = await tokenOf('mvn-reporter', 20, projectId);

    const library = path.join(work, 'greeter');
    mavenProject({
      dir: library,
      artifactId: 'greeter',
      extra: `<distributionManagement><repository><id>platform</id>
                <url>${platform.url}/api/v4/projects/${projectId}/packages/maven</url>
              </repository></distributionManagement>`,
      source: {
        file: 'Greeter.java',
        code: 'package example;\npublic class Greeter { public static String greet() { return "hello"; } }\n',
      },
    });
    const deployed = await mvn(['-s', settingsWith(developer), 'deploy', '-DskipTests'], library);
    if (deployed.code !== 0) process.stdout.write(deployed.output.slice(-4000));
    expect(deployed.code).toBe(0);
    // Installed locally by the deploy's install phase: removed, so that the next build must download it.
    rmSync(path.join(MAVEN_LOCAL_REPOSITORY, ...GROUP_ID.split('.')), { recursive: true, force: true });
  }, 600_000);

  it('builds a project depending on it, resolved through the group-level repository with a reporter token', async () => {
    const app = path.join(work, 'app');
    mavenProject({
      dir: app,
      artifactId: 'app',
      extra: `<repositories><repository><id>platform</id>
                <url>${platform.url}/api/v4/groups/${groupId}/-/packages/maven</url>
              </repository></repositories>
              <dependencies><dependency><groupId>${GROUP_ID}</groupId><artifactId>greeter</artifactId><version>1.0.0</version></dependency></dependencies>`,
      source: { file: 'App.java', code: 'package example;\npublic class App { public static String run() { return Greeter.greet(); } }\n' },
    });
    const built = await mvn(['-s', settingsWith(reporter), '-Dmaven.wagon.http.retryHandler.count=0', 'package', '-DskipTests'], app);
    if (built.code !== 0) process.stdout.write(built.output.slice(-4000));
    expect(built.code).toBe(0);
    // Maven verified the downloads against the repository's .sha1 files (a mismatch warns).
    expect(built.output).not.toMatch(/checksum/i);
    expect(existsSync(path.join(MAVEN_LOCAL_REPOSITORY, ...GROUP_ID.split('.'), 'greeter/1.0.0/greeter-1.0.0.jar'))).toBe(true);
  }, 600_000);

  it('shows the library in the Packages API, its metadata package hidden, and serves its checksums', async () => {
    const listed = await gateway
      .get(`/api/v4/projects/${projectId}/packages`)
      .query({ package_type: 'maven' })
      .set('PRIVATE-TOKEN', reporter);
    expect(listed.status).toBe(200);
    expect(gitlabSchemaErrors('packages/packages.json', listed.body)).toEqual([]);
    const name = `${GROUP_ID.replaceAll('.', '/')}/greeter`;
    expect(listed.body.map((item: { name: string; version: string }) => [item.name, item.version])).toEqual([[name, '1.0.0']]);
    const listedWith = async (query: Record<string, string>) =>
      gateway.get(`/api/v4/projects/${projectId}/packages`).query(query).set('PRIVATE-TOKEN', reporter);
    const metadata = await listedWith({ status: 'hidden', include_versionless: 'true' });
    // GitLab's schema has `version` a string: the version-less package shows an empty one.
    expect(metadata.body.map((item: { name: string; version: string }) => [item.name, item.version])).toEqual([[name, '']]);
    expect((await listedWith({ status: 'hidden' })).body).toEqual([]);
    expect((await listedWith({ status: 'lost' })).body).toEqual({ error: 'status does not have a valid value' });

    const files = await gateway
      .get(`/api/v4/projects/${projectId}/packages/${listed.body[0].id}/package_files`)
      .set('PRIVATE-TOKEN', reporter);
    const byName = new Map((files.body as Array<{ file_name: string; file_sha1: string }>).map((file) => [file.file_name, file]));
    expect([...byName.keys()].sort()).toEqual(['greeter-1.0.0.jar', 'greeter-1.0.0.pom']);

    const sha1 = await gateway
      .get(`/api/v4/projects/${projectId}/packages/maven/${name}/1.0.0/greeter-1.0.0.jar.sha1`)
      .set('PRIVATE-TOKEN', reporter);
    expect(sha1.status).toBe(200);
    expect(sha1.text).toBe(byName.get('greeter-1.0.0.jar')?.file_sha1);
    const wrong = await gateway
      .put(`/api/v4/projects/${projectId}/packages/maven/${name}/1.0.0/greeter-1.0.0.jar.sha1`)
      .set('PRIVATE-TOKEN', developer)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('0'.repeat(40)));
    expect(wrong.status).toBe(409);
    const anonymous = await gateway.get(`/api/v4/packages/maven/${name}/1.0.0/greeter-1.0.0.jar`);
    expect(anonymous.status).toBe(404);
  });
});
