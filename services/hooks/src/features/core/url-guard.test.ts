import { describe, expect, it } from '@jest/globals';
import { DEFAULT_APPLICATION_SETTINGS } from '@platform/admin-client';
import { BlockedUrlError, checkUrl, guardPolicyFor, type GuardPolicy } from './url-guard.ts';

const strict: GuardPolicy = { allowLocal: false, allowlist: [], pinResolvedAddress: true };
const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses;

async function refusal(policy: GuardPolicy, url: string, resolve = resolvesTo('93.184.215.14')): Promise<string | undefined> {
  try {
    await checkUrl(policy, url, resolve);
    return undefined;
  } catch (error) {
    if (error instanceof BlockedUrlError) return error.message;
    throw error;
  }
}

describe('the webhook URL guard', () => {
  it('refuses loopback, private, link-local and metadata addresses, literal or resolved', async () => {
    expect(await refusal(strict, 'http://127.0.0.1:8080/hook')).toBe('Requests to localhost are not allowed');
    expect(await refusal(strict, 'http://[::1]/hook')).toBe('Requests to localhost are not allowed');
    expect(await refusal(strict, 'http://0.0.0.0/')).toBe('Requests to localhost are not allowed');
    expect(await refusal(strict, 'http://[::ffff:127.0.0.1]/')).toBe('Requests to localhost are not allowed');
    expect(await refusal(strict, 'http://10.1.2.3/')).toBe('Requests to the local network are not allowed');
    expect(await refusal(strict, 'http://172.20.0.1/')).toBe('Requests to the local network are not allowed');
    expect(await refusal(strict, 'http://192.168.1.1/')).toBe('Requests to the local network are not allowed');
    expect(await refusal(strict, 'http://[fd00::1]/')).toBe('Requests to the local network are not allowed');
    expect(await refusal(strict, 'http://169.254.169.254/latest/meta-data')).toBe('Requests to the link local network are not allowed');
    expect(await refusal(strict, 'http://[fe80::1]/')).toBe('Requests to the link local network are not allowed');
    expect(await refusal(strict, 'http://rebind.example/', resolvesTo('93.184.215.14', '127.0.0.1'))).toBe(
      'Requests to localhost are not allowed',
    );
    expect(await refusal(strict, 'http://example.com/hook')).toBeUndefined();
  });

  it('refuses other schemes and hosts that do not resolve', async () => {
    expect(await refusal(strict, 'ftp://example.com/')).toBe('Only allowed schemes are http, https');
    expect(await refusal(strict, 'not a url')).toBe('URI is invalid');
    expect(await refusal(strict, 'http://nowhere.invalid/', resolvesTo())).toBe('Host cannot be resolved or invalid');
  });

  it('lets local addresses through when the settings allow them, or the allowlist names them', async () => {
    expect(await refusal({ ...strict, allowLocal: true }, 'http://127.0.0.1/')).toBeUndefined();
    expect(await refusal({ ...strict, allowlist: ['127.0.0.1'] }, 'http://127.0.0.1:9000/')).toBeUndefined();
    expect(await refusal({ ...strict, allowlist: ['10.0.0.0/8'] }, 'http://10.9.8.7/')).toBeUndefined();
    expect(
      await refusal({ ...strict, allowlist: ['*.internal.test'] }, 'http://hooks.internal.test/', resolvesTo('10.0.0.5')),
    ).toBeUndefined();
    expect(await refusal({ ...strict, allowlist: ['ci.local:8080'] }, 'http://ci.local:8080/', resolvesTo('192.168.0.2'))).toBeUndefined();
    expect(await refusal({ ...strict, allowlist: ['ci.local:8080'] }, 'http://ci.local:9090/', resolvesTo('192.168.0.2'))).toBe(
      'Requests to the local network are not allowed',
    );
  });

  it('reads the setting of the hook kind: system hooks have their own', () => {
    const settings = {
      ...DEFAULT_APPLICATION_SETTINGS,
      allowLocalRequestsFromWebHooksAndServices: false,
      allowLocalRequestsFromSystemHooks: true,
    };
    expect(guardPolicyFor('ProjectHook', settings).allowLocal).toBe(false);
    expect(guardPolicyFor('GroupHook', settings).allowLocal).toBe(false);
    expect(guardPolicyFor('SystemHook', settings).allowLocal).toBe(true);
  });
});
