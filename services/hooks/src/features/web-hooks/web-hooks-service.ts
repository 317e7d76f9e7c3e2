import { randomUUID } from 'node:crypto';
import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { EntityManager, Page, PageWindow } from '@platform/db';
import { InputError, NotFoundError, UnprocessableError } from '@platform/errors';
import { compileRegexFilter } from '../core/branch-filter.ts';
import type { HookDeliveries } from '../core/hook-deliveries.ts';
import type { HookFields, HookOwner, PgHookStore } from '../core/hook-store.ts';
import { BlockedUrlError, checkUrl, guardPolicyFor, type Resolver } from '../core/url-guard.ts';
import { TRIGGER_FLAGS, type TriggerFlag, type TriggerFlags, type WebHook, type WebHookLog } from '../core/web-hook.entity.ts';
import type { HookChange } from './web-hooks.schemas.ts';

/** GitLab's defaults: project and group hooks get pushes, system hooks repository updates. */
function defaultTriggers(owner: HookOwner): TriggerFlags {
  const flags = Object.fromEntries(TRIGGER_FLAGS.map((flag) => [flag, false])) as TriggerFlags;
  if (owner.type === 'SystemHook') flags.repository_update_events = true;
  else flags.push_events = true;
  return flags;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A status filter of the events list: codes, or GitLab's categories of them. */
function statusesOf(filter: string[] | undefined): string[] | undefined {
  if (!filter) return undefined;
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => String(from + index));
  return filter.flatMap((status) => {
    if (status === 'successful') return range(200, 299);
    if (status === 'client_failure') return range(400, 499);
    if (status === 'server_failure') return [...range(500, 599), 'internal error'];
    return [status];
  });
}

/** Project, group and system hooks: their settings, tests and recorded deliveries. */
export class WebHooksService {
  readonly #store: PgHookStore;
  readonly #deliveries: HookDeliveries;
  readonly #settings: ApplicationSettingsSource;
  readonly #em: EntityManager;
  readonly #resolve: Resolver | undefined;

  constructor(options: {
    store: PgHookStore;
    deliveries: HookDeliveries;
    settings: ApplicationSettingsSource;
    em: EntityManager;
    resolve?: Resolver;
  }) {
    this.#store = options.store;
    this.#deliveries = options.deliveries;
    this.#settings = options.settings;
    this.#em = options.em;
    this.#resolve = options.resolve;
  }

  list(owner: HookOwner, window: PageWindow): Promise<Page<WebHook>> {
    return this.#store.list(owner, window);
  }

  async get(owner: HookOwner, id: number): Promise<WebHook> {
    const hook = await this.#store.find(owner, id);
    if (!hook) throw new NotFoundError();
    return hook;
  }

  async create(owner: HookOwner, input: HookChange & { url: string }): Promise<WebHook> {
    const fields = await this.#validated(owner, input, undefined);
    return this.#store.create(owner, fields as HookFields);
  }

  async update(owner: HookOwner, id: number, input: HookChange): Promise<WebHook> {
    const hook = await this.get(owner, id);
    const { id: _id, hook_id: _hookId, ...change } = input as HookChange & { id?: unknown; hook_id?: unknown };
    if (Object.values(change).every((value) => value === undefined)) throw new InputError('No parameters provided');
    return this.#store.update(hook, await this.#validated(owner, change, hook));
  }

  async remove(owner: HookOwner, id: number): Promise<void> {
    await this.#store.remove(await this.get(owner, id));
  }

  async events(owner: HookOwner, id: number, status: string[] | undefined, window: PageWindow): Promise<Page<WebHookLog>> {
    const hook = await this.get(owner, id);
    return this.#store.logs(hook.id, statusesOf(status), window);
  }

  /** Sends a recorded delivery again, with its event and idempotency key; the new attempt is logged. */
  async resend(owner: HookOwner, id: number, logId: number): Promise<WebHookLog> {
    const hook = await this.get(owner, id);
    const log = await this.#store.findLog(hook.id, logId);
    if (!log) throw new NotFoundError();
    return this.#deliveries.sendNow(
      hook,
      { trigger: log.trigger, data: log.requestData, eventUuid: log.eventUuid, idempotencyKey: log.idempotencyKey },
      this.#em,
    );
  }

  /** Sends sample data now, even to a disabled hook; a success enables it again. */
  async test(owner: HookOwner, id: number, trigger: string, data: Record<string, unknown>): Promise<WebHookLog> {
    const hook = await this.get(owner, id);
    return this.#deliveries.sendNow(hook, { trigger, data, eventUuid: randomUUID(), idempotencyKey: randomUUID() }, this.#em);
  }

  async #validated(owner: HookOwner, input: HookChange, existing: WebHook | undefined): Promise<Partial<HookFields>> {
    const fields: Partial<HookFields> = {};
    const flags: Partial<TriggerFlags> = {};
    for (const flag of TRIGGER_FLAGS) {
      const value = (input as Partial<Record<TriggerFlag, boolean>>)[flag];
      if (value !== undefined) flags[flag] = value;
    }
    if (!existing || Object.keys(flags).length > 0) fields.triggers = { ...(existing?.triggers ?? defaultTriggers(owner)), ...flags };
    const urlVariables = input.url_variables
      ? { ...(existing?.urlVariables ?? {}), ...Object.fromEntries(input.url_variables.map(({ key, value }) => [key, value])) }
      : undefined;
    if (input.url !== undefined || urlVariables) {
      const url = input.url ?? existing?.url ?? '';
      const variables = urlVariables ?? existing?.urlVariables ?? {};
      const interpolated = url.replace(/\{([A-Za-z0-9_]+)\}/g, (placeholder, name: string) =>
        variables[name] === undefined ? placeholder : encodeURIComponent(variables[name] as string),
      );
      try {
        await checkUrl(guardPolicyFor(owner.type, this.#settings.current()), interpolated, this.#resolve);
      } catch (error) {
        if (error instanceof BlockedUrlError) throw new UnprocessableError('Invalid url given');
        throw error;
      }
      if (input.url !== undefined) fields.url = input.url;
      if (urlVariables) fields.urlVariables = urlVariables;
    }
    const strategy = input.branch_filter_strategy ?? existing?.branchFilterStrategy ?? 'wildcard';
    const filter = input.push_events_branch_filter ?? existing?.pushEventsBranchFilter ?? '';
    if (strategy === 'regex' && filter !== '' && !compileRegexFilter(filter)) throw new UnprocessableError('Invalid branch filter given');
    if (input.branch_filter_strategy !== undefined || !existing) fields.branchFilterStrategy = strategy;
    if (input.push_events_branch_filter !== undefined || !existing) fields.pushEventsBranchFilter = filter;
    if (input.custom_headers) {
      if (input.custom_headers.some(({ key }) => !HEADER_NAME.test(key))) throw new UnprocessableError('Custom headers validation failed');
      fields.customHeaders = {
        ...(existing?.customHeaders ?? {}),
        ...Object.fromEntries(input.custom_headers.map(({ key, value }) => [key, value])),
      };
    } else if (!existing) {
      fields.customHeaders = {};
    }
    if (!existing && !urlVariables) fields.urlVariables = {};
    if (input.name !== undefined || !existing) fields.name = input.name ?? '';
    if (input.description !== undefined || !existing) fields.description = input.description ?? '';
    if (input.token !== undefined) fields.token = input.token === '' ? null : input.token;
    else if (!existing) fields.token = null;
    if (input.enable_ssl_verification !== undefined || !existing) fields.enableSslVerification = input.enable_ssl_verification ?? true;
    return fields;
  }
}
