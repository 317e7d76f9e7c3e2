/**
 * GitLab's outbound request guard for webhooks (`Gitlab::UrlBlocker`): a hook may not reach the
 * loopback, private, link-local (cloud metadata) or other reserved addresses unless the
 * application settings allow local requests for its kind of hook, or the outbound allowlist
 * names the host or address. Checked when a hook is saved and again for every delivery, against
 * the addresses its host resolves to then.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { ApplicationSettings } from '@platform/admin-client';
import type { HookType } from './web-hook.entity.ts';

/** Why a URL may not be requested; the message is GitLab's. */
export class BlockedUrlError extends Error {
  override name = 'BlockedUrlError';
}

export interface GuardPolicy {
  allowLocal: boolean;
  /** `outbound_local_requests_whitelist`: addresses, CIDR ranges, host names, `*.domain`, each with an optional `:port`. */
  allowlist: string[];
  /** Whether a delivery connects to the very addresses that were checked (no second resolution). */
  pinResolvedAddress: boolean;
}

export function guardPolicyFor(type: HookType, settings: ApplicationSettings): GuardPolicy {
  return {
    allowLocal: type === 'SystemHook' ? settings.allowLocalRequestsFromSystemHooks : settings.allowLocalRequestsFromWebHooksAndServices,
    allowlist: settings.outboundLocalRequestsWhitelist,
    pinResolvedAddress: settings.dnsRebindingProtectionEnabled,
  };
}

function subnets(ranges: Array<[string, number]>): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
  return list;
}

const LOCALHOST = subnets([
  ['127.0.0.0', 8],
  ['0.0.0.0', 8],
  ['::1', 128],
  ['::', 128],
]);
const LINK_LOCAL = subnets([
  ['169.254.0.0', 16],
  ['fe80::', 10],
]);
const LOCAL_NETWORK = subnets([
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['fc00::', 7],
]);
const SHARED_ADDRESS_SPACE = subnets([['100.64.0.0', 10]]);
const LIMITED_BROADCAST = subnets([['255.255.255.255', 32]]);

/** `::ffff:127.0.0.1` is 127.0.0.1. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? (mapped[1] as string) : address;
}

function familyOf(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

function hostAndPort(entry: string): { host: string; port?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1] as string, ...(bracketed[2] ? { port: Number(bracketed[2]) } : {}) };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { host: withPort[1] as string, port: Number(withPort[2]) };
  return { host: entry };
}

/** Whether the allowlist names this host name or address (and port, where an entry names one). */
function allowlisted(allowlist: string[], target: { hostname: string; address: string; port: number }): boolean {
  const hostname = target.hostname.toLowerCase();
  return allowlist.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (!entry) return false;
    const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
    if (cidr && isIP(cidr[1] as string)) {
      return target.address !== '' && subnets([[cidr[1] as string, Number(cidr[2])]]).check(target.address, familyOf(target.address));
    }
    const { host, port } = hostAndPort(entry);
    if (port !== undefined && port !== target.port) return false;
    if (isIP(host)) return unmapped(host) === target.address;
    if (host.startsWith('*.')) return hostname.endsWith(host.slice(1));
    return hostname === host;
  });
}

/** Refuses an address a hook may not reach under `policy`. */
export function checkAddress(policy: GuardPolicy, target: { hostname: string; address: string; port: number }): void {
  const address = unmapped(target.address);
  if (policy.allowLocal || allowlisted(policy.allowlist, { ...target, address })) return;
  const family = familyOf(address);
  if (LOCALHOST.check(address, family)) throw new BlockedUrlError('Requests to localhost are not allowed');
  if (LINK_LOCAL.check(address, family)) throw new BlockedUrlError('Requests to the link local network are not allowed');
  if (LOCAL_NETWORK.check(address, family)) throw new BlockedUrlError('Requests to the local network are not allowed');
  if (SHARED_ADDRESS_SPACE.check(address, family)) throw new BlockedUrlError('Requests to the shared address space are not allowed');
  if (LIMITED_BROADCAST.check(address, family)) throw new BlockedUrlError('Requests to the limited broadcast address are not allowed');
}

/** A hook's URL as it may be requested: http or https, with a host. */
export function parseHookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError('URI is invalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedUrlError('Only allowed schemes are http, https');
  if (!url.hostname) throw new BlockedUrlError('URI is invalid');
  return url;
}

export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true })).map((entry) => entry.address);

/** The URL's host without IPv6 brackets. */
export function hostnameOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * Checks every address the URL's host resolves to now; the addresses when all may be reached. A
 * host that does not resolve is refused unless local requests are allowed (GitLab's rule).
 */
export async function checkUrl(policy: GuardPolicy, raw: string, resolve: Resolver = systemResolver): Promise<string[]> {
  const url = parseHookUrl(raw);
  const hostname = hostnameOf(url);
  const port = portOf(url);
  let addresses: string[];
  if (isIP(hostname)) {
    addresses = [hostname];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      if (policy.allowLocal || allowlisted(policy.allowlist, { hostname, address: '', port })) return [];
      throw new BlockedUrlError('Host cannot be resolved or invalid');
    }
  }
  for (const address of addresses) checkAddress(policy, { hostname, address, port });
  return addresses;
}
