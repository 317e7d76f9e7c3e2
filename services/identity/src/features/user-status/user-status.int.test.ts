/** User status against real PostgreSQL: defaults, emoji names, the length limit, Markdown, clearing. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
let user: { id: number; username: string };
let asUser: Record<string, string>;
const anonymous = callerHeader({ kind: 'anonymous' });
const EMPTY_STATUS = { emoji: null, availability: null, message: null, message_html: '', clear_status_at: null };

beforeAll(async () => {
  harness = await startIdentityHarness('user_status');
  user = await harness.createUser('status-user');
  asUser = callerHeader(userCaller(user.id, user.username));
});

afterAll(async () => {
  await harness?.stop();
});

describe('user status', () => {
  it('is empty until set', async () => {
    const response = await harness.api.get('/api/v4/user/status').set(asUser);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(EMPTY_STATUS);
    expect((await harness.api.get('/api/v4/user/status').set(anonymous)).status).toBe(401);
  });

  it('defaults the emoji to speech_balloon and renders the message as sanitised Markdown', async () => {
    const response = await harness.api
      .put('/api/v4/user/status')
      .set(asUser)
      .send({ message: 'Out for **lunch** <img src=x onerror=alert(1)> [x](javascript:alert(1))' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      emoji: 'speech_balloon',
      availability: 'not_set',
      message: 'Out for **lunch** <img src=x onerror=alert(1)> [x](javascript:alert(1))',
    });
    expect(response.body.message_html).toContain('<strong>lunch</strong>');
    expect(response.body.message_html).toContain('&lt;img');
    expect(response.body.message_html).not.toContain('<img');
    expect(response.body.message_html).not.toContain('href="javascript:');
  });

  it('is readable by id or username, also anonymously', async () => {
    await harness.api.put('/api/v4/user/status').set(asUser).send({ emoji: 'coffee', message: 'Brewing' });
    const byId = await harness.api.get(`/api/v4/users/${user.id}/status`).set(anonymous);
    expect(byId.body).toMatchObject({ emoji: 'coffee', message: 'Brewing', message_html: '<p>Brewing</p>' });
    expect((await harness.api.get('/api/v4/users/STATUS-user/status').set(anonymous)).body.emoji).toBe('coffee');
    expect((await harness.api.get('/api/v4/users/nobody-here/status').set(anonymous)).body).toEqual({ message: '404 User Not Found' });
  });

  it('nullifies what a PUT leaves out', async () => {
    await harness.api.put('/api/v4/user/status').set(asUser).send({ emoji: 'coffee', message: 'Brewing', availability: 'busy' });
    const response = await harness.api.put('/api/v4/user/status').set(asUser).send({ emoji: 'palm_tree' });
    expect(response.body).toMatchObject({ emoji: 'palm_tree', message: null, availability: 'not_set' });
  });

  it('is cleared when both emoji and message are empty', async () => {
    await harness.api.put('/api/v4/user/status').set(asUser).send({ emoji: 'coffee', message: 'Brewing' });
    const cleared = await harness.api.put('/api/v4/user/status').set(asUser).send({ emoji: '', message: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual(EMPTY_STATUS);
    expect((await harness.api.get('/api/v4/user/status').set(asUser)).body).toEqual(EMPTY_STATUS);
    expect(await harness.sql('select * from user_statuses where user_id = $1', [user.id])).toEqual([]);
  });

  it('refuses unknown emoji, long messages and unknown enum values', async () => {
    const emoji = await harness.api.put('/api/v4/user/status').set(asUser).send({ emoji: 'not_an_emoji', message: 'x' });
    expect(emoji.status).toBe(400);
    expect(emoji.body).toEqual({ message: { emoji: ['is not a valid emoji name'] } });
    const long = await harness.api
      .put('/api/v4/user/status')
      .set(asUser)
      .send({ message: 'm'.repeat(101) });
    expect(long.body).toEqual({ message: { message: ['is too long (maximum is 100 characters)'] } });
    expect(
      (
        await harness.api
          .put('/api/v4/user/status')
          .set(asUser)
          .send({ message: 'm'.repeat(100) })
      ).status,
    ).toBe(200);
    expect((await harness.api.put('/api/v4/user/status').set(asUser).send({ availability: 'away' })).body).toEqual({
      error: 'availability does not have a valid value',
    });
    expect((await harness.api.put('/api/v4/user/status').set(asUser).send({ clear_status_after: '2_weeks' })).status).toBe(400);
    expect((await harness.api.put('/api/v4/user/status').set(asUser).send({ emoji: 7 })).body).toEqual({ error: 'emoji is invalid' });
  });

  it('clears itself once clear_status_after has passed', async () => {
    const response = await harness.api.put('/api/v4/user/status').set(asUser).send({ emoji: 'coffee', clear_status_after: '30_minutes' });
    const clearsAt = Date.parse(response.body.clear_status_at);
    expect(clearsAt - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(clearsAt - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    await harness.sql("update user_statuses set clear_status_at = now() - interval '1 second' where user_id = $1", [user.id]);
    expect((await harness.api.get(`/api/v4/users/${user.id}/status`).set(anonymous)).body).toEqual(EMPTY_STATUS);
  });
});
