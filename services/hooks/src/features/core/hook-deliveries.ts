/**
 * Delivers webhooks with GitLab's semantics (`WebHookService`): each delivery is sent once and
 * what came back is recorded in the hook's log; a receiver's failure (an error status, a timeout,
 * a refused connection) is not retried, it counts toward auto-disabling and the receiver gets the
 * request again by a resend. What the platform fails at (the database away, the process killed
 * mid-delivery) leaves the delivery pending and its job retried: at least once, with the same
 * `X-Gitlab-Event-UUID` and `Idempotency-Key`.
 */
import { randomUUID } from 'node:crypto';
import type { ApplicationSettingsSource } from '@platform/admin-client';
import { inUnitOfWork, type EntityManager, type Orm } from '@platform/db';
import type { Logger } from '@platform/logger';
import { afterFailure, afterSuccess, isExecutable } from './auto-disabling.ts';
import type { HookSender } from './hook-sender.ts';
import type { PgHookStore } from './hook-store.ts';
import { guardPolicyFor } from './url-guard.ts';
import type { WebHook, WebHookLog } from './web-hook.entity.ts';

/** How long a hook's delivery lease outlasts the receiver's timeout. */
const LEASE_MARGIN_MS = 30_000;
/** How soon a delivery whose hook another job was sending to is looked at again. */
const DEFERRAL_MS = 1000;

export interface DeliverySettings {
  /** The instance's URL, sent as `X-Gitlab-Instance`. */
  instanceUrl: string;
  gitlabVersion: string;
  timeoutMs: number;
}

/** `push_hooks` -> `Push Hook`; every system hook's event is `System Hook`. */
export function eventHeaderOf(hook: Pick<WebHook, 'type'>, trigger: string): string {
  if (hook.type === 'SystemHook') return 'System Hook';
  return trigger
    .replace(/_hooks$/, '_hook')
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** The URL with its `{name}` placeholders filled from the hook's URL variables. */
export function interpolatedUrl(hook: Pick<WebHook, 'url' | 'urlVariables'>): string {
  return hook.url.replace(/\{([A-Za-z0-9_]+)\}/g, (placeholder, name: string) => {
    const value = hook.urlVariables[name];
    return value === undefined ? placeholder : encodeURIComponent(value);
  });
}

/** The URL as logs show it: a password in it masked. */
function loggedUrl(url: string): string {
  return url.replace(/^(https?:\/\/[^:/@]+:)[^@/]*@/, '$1[REDACTED]@');
}

export interface SendOptions {
  trigger: string;
  data: Record<string, unknown>;
  eventUuid: string;
  idempotencyKey: string;
}

export class HookDeliveries {
  readonly #orm: Orm;
  readonly #em: EntityManager;
  readonly #store: PgHookStore;
  readonly #settings: ApplicationSettingsSource;
  readonly #send: HookSender;
  readonly #delivery: DeliverySettings;
  readonly #logger: Logger;

  constructor(options: {
    orm: Orm;
    em: EntityManager;
    store: PgHookStore;
    settings: ApplicationSettingsSource;
    send: HookSender;
    delivery: DeliverySettings;
    logger: Logger;
  }) {
    this.#orm = options.orm;
    this.#em = options.em;
    this.#store = options.store;
    this.#settings = options.settings;
    this.#send = options.send;
    this.#delivery = options.delivery;
    this.#logger = options.logger;
  }

  /**
   * The delivery job: unless another job holds the hook's lease (it then sends this delivery too,
   * or this job runs again shortly), sends the hook's pending deliveries oldest first, one at a
   * time, until none is left. Other hooks' deliveries go out meanwhile, in the job kind's other slots.
   */
  async deliver(logId: number, signal: AbortSignal): Promise<void> {
    const hookId = await this.#store.hookOfDelivery(logId);
    if (hookId === undefined) return;
    const holder = randomUUID();
    // Long enough for a receiver to use all its time, short enough that a killed process's hook is soon sent to again.
    const lease = { hookId, holder, ms: this.#delivery.timeoutMs + LEASE_MARGIN_MS };
    if (!(await this.#store.leaseHook(lease))) {
      await this.#store.deferDelivery(logId, new Date(Date.now() + DEFERRAL_MS));
      return;
    }
    try {
      for (;;) {
        // Stopping: the deliveries left keep their jobs, this one included.
        if (signal.aborted) throw new Error('stopped before the hook had no pending delivery left');
        // A unit of work per delivery: each reads its hook afresh (disabled or failing since), and the
        // identity map does not grow with the hook's queue.
        const sent = await inUnitOfWork(this.#orm, async () => {
          const next = await this.#store.oldestPending(hookId);
          if (!next) return false;
          if (!(await this.#store.leaseHook(lease))) throw new Error(`the delivery lease of hook ${hookId} ran out`);
          const { hook, log } = next;
          if (!isExecutable(hook.type, hook, new Date())) {
            // Disabled since the event came: GitLab does not send it, nor log it.
            await this.#em.remove(log).flush();
          } else {
            const outcome = await this.#exchange(hook, log);
            this.#em.assign(log, { ...outcome, state: 'delivered' });
            this.#afterExchange(this.#em, hook, outcome.responseStatus);
            await this.#em.flush();
          }
          return true;
        });
        if (!sent) return;
      }
    } finally {
      await this.#store.releaseHook(lease);
    }
  }

  /** Sends now and records it (a test, a resend); a test is sent even to a disabled hook. */
  async sendNow(hook: WebHook, options: SendOptions, em: EntityManager): Promise<WebHookLog> {
    const pending = {
      webHookId: hook.id,
      trigger: options.trigger,
      eventUuid: options.eventUuid,
      idempotencyKey: options.idempotencyKey,
      url: loggedUrl(hook.url),
      requestData: options.data,
      createdAt: new Date(),
    };
    const outcome = await this.#exchange(hook, pending);
    const log = await this.#store.recordSent({ ...pending, ...outcome, state: 'delivered' });
    this.#afterExchange(em, hook, outcome.responseStatus);
    await em.flush();
    return log;
  }

  #afterExchange(em: EntityManager, hook: WebHook, responseStatus: string): void {
    const status = Number(responseStatus);
    const ok = status >= 200 && status < 400;
    em.assign(hook, ok ? afterSuccess() : afterFailure(hook.type, hook, new Date()));
  }

  async #exchange(
    hook: WebHook,
    log: Pick<WebHookLog, 'trigger' | 'eventUuid' | 'idempotencyKey' | 'requestData'>,
  ): Promise<
    Pick<
      WebHookLog,
      'url' | 'requestHeaders' | 'responseHeaders' | 'responseBody' | 'responseStatus' | 'internalErrorMessage' | 'executionDuration'
    >
  > {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': `GitLab/${this.#delivery.gitlabVersion}`,
      'Idempotency-Key': log.idempotencyKey,
      'X-Gitlab-Event': eventHeaderOf(hook, log.trigger),
      'X-Gitlab-Webhook-UUID': randomUUID(),
      'X-Gitlab-Instance': this.#delivery.instanceUrl,
      'X-Gitlab-Event-UUID': log.eventUuid,
      ...(hook.token ? { 'X-Gitlab-Token': hook.token.replace(/[\r\n]/g, '') } : {}),
    };
    const started = performance.now();
    const response = await this.#send({
      url: interpolatedUrl(hook),
      headers: { ...hook.customHeaders, ...headers },
      body: JSON.stringify(log.requestData),
      verifyTls: hook.enableSslVerification,
      policy: guardPolicyFor(hook.type, this.#settings.current()),
      timeoutMs: this.#delivery.timeoutMs,
    });
    const executionDuration = (performance.now() - started) / 1000;
    const requestHeaders = {
      ...Object.fromEntries(Object.keys(hook.customHeaders).map((name) => [name, '[REDACTED]'])),
      ...headers,
      ...(hook.token ? { 'X-Gitlab-Token': '[REDACTED]' } : {}),
    };
    if (response.kind === 'internal error') {
      this.#logger.info({ hookId: hook.id, trigger: log.trigger, error: response.message }, 'webhook not delivered');
    }
    return {
      url: loggedUrl(hook.url),
      requestHeaders,
      executionDuration,
      ...(response.kind === 'answered'
        ? {
            responseHeaders: response.headers,
            responseBody: response.body,
            responseStatus: String(response.status),
            internalErrorMessage: null,
          }
        : { responseHeaders: {}, responseBody: '', responseStatus: 'internal error', internalErrorMessage: response.message }),
    };
  }
}
