import { describe, expect, it } from '@jest/globals';
import { deploymentPayload, featureFlagPayload, pipelinePayload } from './delivery-payloads.ts';
import type { HookProject } from './project-directory.ts';

const project: HookProject = {
  id: 30,
  name: 'test-deployment-webhooks',
  description: '',
  path: 'test-deployment-webhooks',
  pathWithNamespace: 'root/test-deployment-webhooks',
  namespaceName: 'Administrator',
  namespaceIds: [1],
  visibility: 'private',
  defaultBranch: 'master',
  webUrl: 'http://10.126.0.2:3000/root/test-deployment-webhooks',
};
const root = { id: 1, name: 'Administrator', username: 'root', avatarUrl: null };

describe('deployment payloads', () => {
  it("carry the deployment, its environment and commit as GitLab's deployment event example, with no deployable for an API deployment", () => {
    const payload = deploymentPayload({
      deployment: {
        id: 15,
        status: 'success',
        statusChangedAt: '2021-04-28T19:50:00.123Z',
        environment: { name: 'staging', tier: 'staging', slug: 'staging', externalUrl: 'https://staging.example.com' },
        ref: 'master',
        sha: '279484c09fbe69ededfced8c1bb6e6d24616b468',
        commitTitle: 'Add new file',
      },
      project,
      user: root,
    });
    expect(payload).toEqual({
      object_kind: 'deployment',
      status: 'success',
      status_changed_at: '2021-04-28 19:50:00 +0000',
      deployment_id: 15,
      deployable_id: null,
      deployable_url: null,
      environment: 'staging',
      environment_tier: 'staging',
      environment_slug: 'staging',
      environment_external_url: 'https://staging.example.com',
      project: expect.objectContaining({ id: 30, path_with_namespace: 'root/test-deployment-webhooks', visibility_level: 0 }),
      short_sha: '279484c0',
      user: { id: 1, name: 'Administrator', username: 'root', avatar_url: null, email: '[REDACTED]' },
      user_url: 'http://10.126.0.2:3000/root',
      commit_url: 'http://10.126.0.2:3000/root/test-deployment-webhooks/-/commit/279484c09fbe69ededfced8c1bb6e6d24616b468',
      commit_title: 'Add new file',
      ref: 'master',
    });
  });

  it('name no user when nobody is known to have deployed', () => {
    const payload = deploymentPayload({
      deployment: {
        id: 1,
        status: 'running',
        statusChangedAt: '2021-04-28T19:50:00Z',
        environment: { name: 'production', tier: 'production', slug: 'production', externalUrl: null },
        ref: 'main',
        sha: 'a'.repeat(40),
        commitTitle: null,
      },
      project,
      user: undefined,
    });
    expect(payload).toMatchObject({ user: null, user_url: null, environment_external_url: null, commit_title: null });
  });
});

describe('feature flag payloads', () => {
  it("carry the flag's id, name, description and state as GitLab's feature flag event example", () => {
    const payload = featureFlagPayload({
      featureFlag: { id: 6, name: 'test-feature-flag', description: 'test-feature-flag-description', active: true },
      project,
      user: root,
    });
    expect(payload).toEqual({
      object_kind: 'feature_flag',
      project: expect.objectContaining({ id: 30, web_url: project.webUrl }),
      user: { id: 1, name: 'Administrator', username: 'root', avatar_url: null, email: '[REDACTED]' },
      user_url: 'http://10.126.0.2:3000/root',
      object_attributes: { id: 6, name: 'test-feature-flag', description: 'test-feature-flag-description', active: true },
    });
  });
});

describe('pipeline payloads', () => {
  const pipeline = {
    id: 31,
    iid: 3,
    ref: 'master',
    tag: false,
    sha: 'bcbb5ec396a2c0f828686f14fac9b80b780504f2',
    beforeSha: 'bcbb5ec396a2c0f828686f14fac9b80b780504f2',
    source: 'external',
    status: 'success',
    protectedRef: true,
    createdAt: '2016-08-12T15:23:28.512Z',
    finishedAt: '2016-08-12T15:26:29.104Z',
    duration: 63,
  };

  it("carry an external pipeline as GitLab's pipeline event example, with its commit and no stages, builds or merge request", () => {
    const payload = pipelinePayload({
      pipeline,
      commit: {
        id: 'bcbb5ec396a2c0f828686f14fac9b80b780504f2',
        message: 'test\n',
        authorName: 'User',
        authorEmail: 'user@gitlab.com',
        timestamp: '2016-08-12T17:23:21+02:00',
      },
      project,
      user: root,
    });
    expect(payload).toEqual({
      object_kind: 'pipeline',
      object_attributes: {
        id: 31,
        iid: 3,
        name: null,
        ref: 'master',
        tag: false,
        sha: 'bcbb5ec396a2c0f828686f14fac9b80b780504f2',
        before_sha: 'bcbb5ec396a2c0f828686f14fac9b80b780504f2',
        source: 'external',
        status: 'success',
        detailed_status: 'passed',
        stages: [],
        created_at: '2016-08-12 15:23:28 UTC',
        finished_at: '2016-08-12 15:26:29 UTC',
        duration: 63,
        queued_duration: null,
        protected_ref: true,
        variables: [],
        url: 'http://10.126.0.2:3000/root/test-deployment-webhooks/-/pipelines/31',
      },
      merge_request: null,
      user: { id: 1, name: 'Administrator', username: 'root', avatar_url: null, email: '[REDACTED]' },
      project: {
        id: 30,
        name: 'test-deployment-webhooks',
        description: '',
        web_url: 'http://10.126.0.2:3000/root/test-deployment-webhooks',
        avatar_url: null,
        git_ssh_url: 'git@10.126.0.2:root/test-deployment-webhooks.git',
        git_http_url: 'http://10.126.0.2:3000/root/test-deployment-webhooks.git',
        namespace: 'Administrator',
        visibility_level: 0,
        path_with_namespace: 'root/test-deployment-webhooks',
        default_branch: 'master',
        ci_config_path: null,
      },
      commit: {
        id: 'bcbb5ec396a2c0f828686f14fac9b80b780504f2',
        message: 'test\n',
        title: 'test',
        timestamp: '2016-08-12T17:23:21+02:00',
        url: 'http://10.126.0.2:3000/root/test-deployment-webhooks/-/commit/bcbb5ec396a2c0f828686f14fac9b80b780504f2',
        author: { name: 'User', email: 'user@gitlab.com' },
      },
      builds: [],
    });
  });

  it('show a running pipeline unfinished, and no commit or user when none is known', () => {
    const payload = pipelinePayload({
      pipeline: { ...pipeline, status: 'running', protectedRef: false, finishedAt: null, duration: null },
      commit: undefined,
      project,
      user: undefined,
    });
    expect(payload).toMatchObject({
      object_attributes: { status: 'running', detailed_status: 'running', finished_at: null, duration: null, protected_ref: false },
      user: null,
      commit: null,
    });
  });
});
