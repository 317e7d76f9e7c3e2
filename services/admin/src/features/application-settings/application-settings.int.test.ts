/**
 * The Application settings API against real PostgreSQL and Kafka (identity's administrator check
 * is a fake): defaults, writes by query and body, every kind of refusal naming the setting, the
 * change events, and the gRPC read other services make at their start.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createChannelCredentials, callUnary, internalClientOptions } from '@platform/grpc';
import { FakeIdentityAccess } from '@platform/identity-client';
import { FixedReviewRepositories } from '@platform/review-client';
import { AdminServiceClient } from '@platform/proto/admin/v1';
import { ApplicationSettingChanged } from '@platform/proto/admin/v1/events';
import { startService, type RunningService } from '@platform/service';
import { adminCaller, startServiceHarness, TEST_INTERNAL_SECRET, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { adminService } from '../../main.ts';

const root = adminCaller();
const stranger = userCaller(23, 'stranger');
let harness: ServiceHarness<RunningService>;

beforeAll(async () => {
  harness = await startServiceHarness({
    label: 'admin_settings',
    env: { KAFKA_TOPIC_PREFIX: `admin-settings-${randomUUID()}.`, CI_VARIABLES_KEY: randomBytes(32).toString('base64') },
    start: (env) =>
      startService(
        adminService(readConfig(env), {
          identityAccess: new FakeIdentityAccess(),
          // The storages review is configured with.
          repositoryStorages: new FixedReviewRepositories({ names: ['default', 'second', 'fast'] }),
        }),
      ),
  });
});

afterAll(() => harness?.stop());

const put = (body: Record<string, unknown>) => harness.api.put('/api/v4/application/settings').set(harness.as(root)).send(body);

describe('reading the settings', () => {
  it("answers every setting with GitLab's defaults, the deprecated aliases, and no secrets", async () => {
    const response = await harness.api.get('/api/v4/application/settings').set(harness.as(root));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: 1,
      default_projects_limit: 100_000,
      default_project_visibility: 'private',
      default_branch_protection: 2,
      signup_enabled: true,
      max_import_size: 50,
      deletion_adjourned_period: 0,
      external_authorization_service_timeout: 0.5,
      repository_storages_weighted: { default: 100 },
      domain_allowlist: null,
      issues_create_limit: 0,
      admin_notification_email: null,
      allow_local_requests_from_hooks_and_services: false,
    });
    expect(response.body).not.toHaveProperty('spamfilter_api_key');
    expect(response.body).not.toHaveProperty('asset_proxy_secret_key');
    expect(Date.parse(response.body.created_at)).not.toBeNaN();
    expect(Date.parse(response.body.updated_at)).not.toBeNaN();
  });

  it('is for administrators only', async () => {
    expect((await harness.api.get('/api/v4/application/settings').set(harness.as(stranger))).status).toBe(403);
    expect((await harness.api.put('/api/v4/application/settings?signup_enabled=false').set(harness.as(stranger))).status).toBe(403);
    expect((await harness.api.get('/api/v4/application/settings')).status).toBe(401);
  });
});

describe('changing the settings', () => {
  it('takes query parameters and form bodies, and records one event per changed setting', async () => {
    const byQuery = await harness.api
      .put('/api/v4/application/settings?default_projects_limit=42&signup_enabled=f&restricted_visibility_levels=0,public')
      .set(harness.as(root));
    expect(byQuery.status).toBe(200);
    expect(byQuery.body).toMatchObject({
      default_projects_limit: 42,
      signup_enabled: false,
      restricted_visibility_levels: ['private', 'public'],
    });

    const byForm = await harness.api
      .put('/api/v4/application/settings')
      .set(harness.as(root))
      .type('form')
      .send('import_sources[]=git&import_sources[]=gitea&repository_storages_weighted[default]=60&repository_storages_weighted[second]=40');
    expect(byForm.status).toBe(200);
    expect(byForm.body).toMatchObject({ import_sources: ['git', 'gitea'], repository_storages_weighted: { default: 60, second: 40 } });

    const events = await harness.outboxEvents('admin.application_setting.changed');
    expect(events.map((event) => event.data.setting)).toEqual([
      'default_projects_limit',
      'signup_enabled',
      'restricted_visibility_levels',
      'import_sources',
      'repository_storages_weighted',
    ]);
    expect(events[0]).toMatchObject({ aggregateId: '1', actor: { id: 1, username: 'root' }, data: { from: '100000', to: '42' } });
    const [first, last] = [events[0], events.at(-1)].map((event) => ApplicationSettingChanged.fromJSON(event?.data));
    expect(last?.settings).toMatchObject({
      defaultProjectsLimit: 42,
      signupEnabled: false,
      repositoryStoragesWeighted: { default: 60, second: 40 },
    });
    expect(last?.settings?.revision).toBeGreaterThan(first?.settings?.revision ?? Infinity);
  });

  it('records nothing when nothing changes', async () => {
    const before = (await harness.outboxEvents('admin.application_setting.changed')).length;
    expect((await put({ default_projects_limit: 42 })).status).toBe(200);
    expect(await harness.outboxEvents('admin.application_setting.changed')).toHaveLength(before);
  });

  it('accepts the deprecated aliases', async () => {
    const response = await put({ admin_notification_email: 'abuse@example.com', allow_local_requests_from_hooks_and_services: true });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      abuse_notification_email: 'abuse@example.com',
      admin_notification_email: 'abuse@example.com',
      allow_local_requests_from_web_hooks_and_services: true,
    });
  });

  it('keeps a secret encrypted, without answering it or publishing its value', async () => {
    const response = await put({ spamfilter_enabled: true, spamfilter_api_key: 'very-secret-key' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ spamfilter_enabled: true });
    expect(response.body).not.toHaveProperty('spamfilter_api_key');
    const [keyChange] = (await harness.outboxEvents('admin.application_setting.changed')).filter(
      (event) => event.data.setting === 'spamfilter_api_key',
    );
    expect(ApplicationSettingChanged.fromJSON(keyChange?.data)).toMatchObject({ from: '', to: '', secret: true });
    const [stored] = await harness.sql<{ key: string }>("select settings->>'spamfilter_api_key' as key from application_settings");
    expect(stored?.key).toMatch(/^v1:/);
    expect(stored?.key).not.toContain('very-secret-key');
    // The same secret again is no change; another one is.
    expect((await put({ spamfilter_api_key: 'very-secret-key' })).status).toBe(200);
    expect((await put({ spamfilter_api_key: 'another-secret-key' })).status).toBe(200);
    const keyChanges = (await harness.outboxEvents('admin.application_setting.changed')).filter(
      (event) => event.data.setting === 'spamfilter_api_key',
    );
    expect(keyChanges).toHaveLength(2);
  });

  it.each([
    [{ deletion_adjourned_period: 91 }, { error: 'deletion_adjourned_period does not have a valid value' }],
    [{ deletion_adjourned_period: -1 }, { error: 'deletion_adjourned_period does not have a valid value' }],
    [{ default_project_visibility: 'secret' }, { error: 'default_project_visibility does not have a valid value' }],
    [{ default_branch_protection: 3 }, { error: 'default_branch_protection does not have a valid value' }],
    [{ first_day_of_week: 2 }, { error: 'first_day_of_week does not have a valid value' }],
    [{ rsa_key_restriction: 1000 }, { error: 'rsa_key_restriction does not have a valid value' }],
    [{ external_authorization_service_timeout: 10.5 }, { error: 'external_authorization_service_timeout does not have a valid value' }],
    [{ external_authorization_service_timeout: 0.0005 }, { error: 'external_authorization_service_timeout does not have a valid value' }],
    [{ signup_enabled: 'maybe' }, { error: 'signup_enabled is invalid' }],
    [{ default_projects_limit: 'many' }, { error: 'default_projects_limit is invalid' }],
    [{ import_sources: ['git', 'cvs'] }, { error: 'import_sources[1] does not have a valid value' }],
    [{ restricted_visibility_levels: [30] }, { error: 'restricted_visibility_levels[0] does not have a valid value' }],
    [{ repository_storages_weighted: { default: 101 } }, { error: 'repository_storages_weighted[default] does not have a valid value' }],
    [{ archive_builds_in_human_readable: '3 hours' }, { error: 'archive_builds_in_human_readable is not a correct duration' }],
    [{ home_page_url: 'not a url' }, { error: 'home_page_url is not a valid URL' }],
    [{ abuse_notification_email: 'nobody' }, { error: 'abuse_notification_email is invalid' }],
    [{ geo_node_allowed_ips: '10.0.0.0/33' }, { error: 'geo_node_allowed_ips is invalid' }],
    [{ hashed_storage_enabled: false }, { error: 'hashed_storage_enabled does not have a valid value' }],
    [{ diff_max_patch_bytes: 100 }, { error: 'diff_max_patch_bytes does not have a valid value' }],
    [{ max_personal_access_token_lifetime: 400 }, { error: 'max_personal_access_token_lifetime does not have a valid value' }],
  ])('refuses %j naming the setting', async (body, error) => {
    const response = await put(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error);
  });

  it.each([
    [{ spamfilter_enabled: true }, 'spamfilter_api_key is missing'],
    [{ asset_proxy_enabled: true }, 'asset_proxy_url is missing'],
    [{ enforce_terms: true }, 'terms is missing'],
    [{ domain_denylist_enabled: true }, 'domain_denylist is missing'],
    [{ plantuml_enabled: 'true' }, 'plantuml_url is missing'],
    [
      { external_authorization_service_enabled: true, external_authorization_service_url: 'https://auth.example.com' },
      'external_authorization_service_default_label is missing, external_authorization_service_timeout is missing',
    ],
    [
      { housekeeping_enabled: true, housekeeping_gc_period: 300 },
      'housekeeping_bitmaps_enabled is missing, housekeeping_full_repack_period is missing, housekeeping_incremental_repack_period is missing',
    ],
  ])('refuses %j without what it requires', async (body, error) => {
    const response = await put(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
  });

  it('refuses a blank required setting and inconsistent periods as GitLab validates records', async () => {
    const blank = await put({ enforce_terms: true, terms: '' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: { terms: ["can't be blank"] } });
    const periods = await put({
      housekeeping_enabled: true,
      housekeeping_bitmaps_enabled: true,
      housekeeping_incremental_repack_period: 20,
      housekeeping_full_repack_period: 10,
      housekeeping_gc_period: 200,
    });
    expect(periods.status).toBe(400);
    expect(periods.body).toEqual({
      message: { housekeeping_full_repack_period: ['must be greater than or equal to housekeeping_incremental_repack_period'] },
    });
    const settings = await harness.api.get('/api/v4/application/settings').set(harness.as(root));
    expect(settings.body).toMatchObject({ enforce_terms: false, housekeeping_incremental_repack_period: 10 });
  });

  it('accepts the values at the edges of each range, and lists in their GitLab forms', async () => {
    const response = await put({
      deletion_adjourned_period: 0,
      external_authorization_service_timeout: '10',
      domain_denylist_enabled: true,
      domain_denylist: 'spam.example\nbad.example; worse.example',
      enabled_git_access_protocol: 'nil',
      archive_builds_in_human_readable: '1 day',
      geo_node_allowed_ips: '10.0.0.0/8, ::1',
      max_import_size: 0,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      deletion_adjourned_period: 0,
      external_authorization_service_timeout: 10,
      domain_denylist: ['spam.example', 'bad.example', 'worse.example'],
      enabled_git_access_protocol: null,
      archive_builds_in_human_readable: '1 day',
      max_import_size: 0,
    });
  });
});

describe('the gRPC read', () => {
  it('answers the settings other services act on, on their own behalf', async () => {
    const client = new AdminServiceClient(
      `127.0.0.1:${harness.service.grpcPort}`,
      createChannelCredentials(),
      internalClientOptions({ internalSecret: TEST_INTERNAL_SECRET }),
    );
    try {
      const { settings } = await callUnary(client.getApplicationSettings.bind(client), {});
      expect(settings).toMatchObject({ defaultProjectsLimit: 42, signupEnabled: false, deletionAdjournedPeriod: 0 });
    } finally {
      client.close();
    }
  });
});

describe('repository storages', () => {
  it('lists every storage review is configured with, weighing 0 those not weighed', async () => {
    expect((await put({ repository_storages_weighted: { default: 70, second: 30 } })).status).toBe(200);
    const response = await harness.api.get('/api/v4/application/settings').set(harness.as(root));
    expect(response.body.repository_storages_weighted).toEqual({ default: 70, second: 30, fast: 0 });
    expect(response.body.repository_storages).toEqual(['default', 'second', 'fast']);
  });

  it('refuses storages review is not configured with, as GitLab words it', async () => {
    const weighted = await put({ repository_storages_weighted: { default: 50, third: 25, fourth: 25 } });
    expect(weighted.status).toBe(400);
    expect(weighted.body).toEqual({ message: { repository_storages_weighted: ["can't include: third, fourth"] } });
    const listed = await put({ repository_storages: ['default', 'third'] });
    expect(listed.status).toBe(400);
    expect(listed.body).toEqual({ message: { repository_storages: ["can't include: third"] } });
    const response = await harness.api.get('/api/v4/application/settings').set(harness.as(root));
    expect(response.body.repository_storages_weighted).toEqual({ default: 70, second: 30, fast: 0 });
  });
});
