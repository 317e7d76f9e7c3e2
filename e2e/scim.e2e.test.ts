/**
 * SCIM provisioning through the real gateway, as an identity provider drives it: the gateway
 * passes the SCIM token through to identity, which checks it against the group's token.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

let platform: RunningPlatform;
let gateway: ReturnType<typeof request>;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['identity', 'audit'] });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

/** A group owner sets up single sign-on and SCIM, as a person would through the API. */
async function groupWithScim(path: string): Promise<{ id: number; token: string }> {
  const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: path, path });
  expect(group.status).toBe(201);
  const saml = await gateway
    .put(`/api/v4/groups/${group.body.id}/saml`)
    .set(asRoot)
    .send({ enabled: true, sso_url: 'https://idp.example.com/sso', certificate_fingerprint: '0123456789abcdef0123456789abcdef01234567' });
  expect(saml.status).toBe(200);
  const token = await gateway.post(`/api/v4/groups/${group.body.id}/scim/token`).set(asRoot);
  expect(token.status).toBe(201);
  return { id: group.body.id, token: token.body.token };
}

function scimRequest(test: request.Test, token: string): request.Test {
  return test.set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/scim+json');
}

describe('SCIM through the gateway', () => {
  it('provisions, finds, renames, deactivates, reactivates and deletes a user', async () => {
    const group = await groupWithScim('e2e-scim');
    const users = '/api/scim/v2/groups/e2e-scim/Users';

    const created = await scimRequest(gateway.post(users), group.token).send(
      JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        externalId: 'idp-1',
        userName: 'e2e.provisioned@corp.example',
        emails: [{ type: 'work', value: 'e2e.provisioned@corp.example', primary: true }],
        name: { givenName: 'Pro', familyName: 'Visioned' },
        active: true,
      }),
    );
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(created.body).toMatchObject({ id: 'idp-1', userName: 'e2e.provisioned', active: true, 'name.formatted': 'Pro Visioned' });

    const found = await scimRequest(gateway.get(users).query({ filter: 'userName eq "e2e.provisioned@corp.example"' }), group.token);
    expect(found.body).toMatchObject({ totalResults: 1, Resources: [expect.objectContaining({ id: 'idp-1' })] });

    const patch = (operations: unknown[]) =>
      scimRequest(gateway.patch(`${users}/idp-1`), group.token).send(JSON.stringify({ Operations: operations }));
    expect((await patch([{ op: 'Replace', path: 'name.formatted', value: 'Pro Renamed' }])).status).toBe(204);
    expect((await patch([{ op: 'Replace', path: 'active', value: false }])).status).toBe(204);
    expect((await scimRequest(gateway.get(`${users}/idp-1`), group.token)).body).toMatchObject({
      active: false,
      'name.formatted': 'Pro Renamed',
    });
    expect((await patch([{ op: 'Replace', path: 'active', value: true }])).status).toBe(204);
    expect((await scimRequest(gateway.delete(`${users}/idp-1`), group.token)).status).toBe(204);
    const gone = await scimRequest(gateway.get(`${users}/idp-1`), group.token);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], detail: 'Resource idp-1 not found' });

    const audited = await waitFor(
      async () => {
        const response = await gateway.get(`/api/v4/audit_events?entity_type=Group&entity_id=${group.id}&per_page=100`).set(asRoot);
        const names = (response.body as Array<{ event_name: string }>).map((event) => event.event_name);
        return names.filter((name) => name.startsWith('scim_user_')).length === 4 ? response.body : undefined;
      },
      { what: 'the group audit events of the provisioning' },
    );
    const provisioning = (audited as Array<{ event_name: string; details: Record<string, unknown> }>)
      .filter((event) => event.event_name.startsWith('scim_user_'))
      .map((event) => event.details.custom_message)
      .sort();
    expect(provisioning).toEqual([
      'Created and provisioned user through SCIM with externalId idp-1',
      'Deactivated user through SCIM with externalId idp-1',
      'Deprovisioned user through SCIM with externalId idp-1',
      'Reactivated user through SCIM with externalId idp-1',
    ]);
  });

  it("refuses a missing token, a wrong one, and one group's token on another group's path", async () => {
    const first = await groupWithScim('e2e-scim-first');
    await groupWithScim('e2e-scim-second');
    const missing = await gateway.get('/api/scim/v2/groups/e2e-scim-first/Users');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ status: '401', detail: 'Unauthorized' });
    expect((await scimRequest(gateway.get('/api/scim/v2/groups/e2e-scim-first/Users'), 'glsoat-wrong')).status).toBe(401);
    expect((await scimRequest(gateway.get('/api/scim/v2/groups/e2e-scim-second/Users'), first.token)).status).toBe(401);
    expect((await scimRequest(gateway.get('/api/scim/v2/groups/e2e-scim-first/Users'), first.token)).status).toBe(200);
    // A personal access token is no SCIM token.
    expect((await scimRequest(gateway.get('/api/scim/v2/groups/e2e-scim-first/Users'), E2E_ROOT_TOKEN)).status).toBe(401);
  });
});
