/** Custom attributes of users against real PostgreSQL: administrators set, read and delete them. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
let user: { id: number; username: string };
const admin = callerHeader(adminCaller());

beforeAll(async () => {
  harness = await startIdentityHarness('custom_attributes');
  user = await harness.createUser('attributed');
});

afterAll(async () => {
  await harness?.stop();
});

describe('custom attributes of users', () => {
  it('creates, replaces, reads and deletes an attribute', async () => {
    const created = await harness.api.put(`/api/v4/users/${user.id}/custom_attributes/team`).set(admin).send({ value: 'red' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ key: 'team', value: 'red' });
    const replaced = await harness.api.put(`/api/v4/users/${user.id}/custom_attributes/team`).set(admin).send({ value: 'blue' });
    expect(replaced.body).toEqual({ key: 'team', value: 'blue' });
    await harness.api.put('/api/v4/users/attributed/custom_attributes/area').set(admin).send({ value: 'north' });
    const listed = await harness.api.get(`/api/v4/users/${user.id}/custom_attributes`).set(admin);
    expect(listed.body).toEqual([
      { key: 'area', value: 'north' },
      { key: 'team', value: 'blue' },
    ]);
    expect((await harness.api.get(`/api/v4/users/${user.id}/custom_attributes/team`).set(admin)).body).toEqual({
      key: 'team',
      value: 'blue',
    });
    expect((await harness.api.delete(`/api/v4/users/${user.id}/custom_attributes/team`).set(admin)).status).toBe(204);
    const gone = await harness.api.get(`/api/v4/users/${user.id}/custom_attributes/team`).set(admin);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Custom Attribute Not Found' });
    expect((await harness.api.delete(`/api/v4/users/${user.id}/custom_attributes/team`).set(admin)).status).toBe(404);
  });

  it('is for administrators only', async () => {
    const asUser = callerHeader(userCaller(user.id, user.username));
    expect((await harness.api.get(`/api/v4/users/${user.id}/custom_attributes`).set(asUser)).status).toBe(403);
    expect((await harness.api.put(`/api/v4/users/${user.id}/custom_attributes/x`).set(asUser).send({ value: 'y' })).status).toBe(403);
    expect((await harness.api.delete(`/api/v4/users/${user.id}/custom_attributes/x`).set(asUser)).status).toBe(403);
    expect((await harness.api.get(`/api/v4/users/${user.id}/custom_attributes`).set(callerHeader({ kind: 'anonymous' }))).status).toBe(401);
  });

  it('refuses a missing, blank or oversized value and an unknown user', async () => {
    expect((await harness.api.put(`/api/v4/users/${user.id}/custom_attributes/x`).set(admin).send({})).body).toEqual({
      error: 'value is missing',
    });
    expect((await harness.api.put(`/api/v4/users/${user.id}/custom_attributes/x`).set(admin).send({ value: ' ' })).body).toEqual({
      message: { value: ["can't be blank"] },
    });
    const oversized = await harness.api
      .put(`/api/v4/users/${user.id}/custom_attributes/x`)
      .set(admin)
      .send({ value: 'v'.repeat(256) });
    expect(oversized.body).toEqual({ error: 'value is too long (maximum is 255 characters)' });
    expect((await harness.api.get('/api/v4/users/999999/custom_attributes').set(admin)).body).toEqual({ message: '404 User Not Found' });
  });

  it('goes with a deleted user', async () => {
    const leaving = await harness.createUser('attributed-leaver');
    await harness.api.put(`/api/v4/users/${leaving.id}/custom_attributes/x`).set(admin).send({ value: 'y' });
    await harness.api.delete(`/api/v4/users/${leaving.id}`).set(admin);
    expect(await harness.sql('select id from user_custom_attributes where user_id = $1', [leaving.id])).toEqual([]);
  });
});
