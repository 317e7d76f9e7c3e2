import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@platform/db';
import { findPage, type Page, type PageWindow } from '@platform/db';
import { enqueueJob } from '@platform/service';
import type { FailureState } from './auto-disabling.ts';
import { deliveryJob } from './hooks.jobs.ts';
import { WebHook, WebHookLog, type HookType } from './web-hook.entity.ts';

/** Whose hooks: a project's, a group's, or the instance's (system hooks). */
export type HookOwner = { type: 'ProjectHook'; projectId: number } | { type: 'GroupHook'; groupId: number } | { type: 'SystemHook' };

export type HookFields = Omit<
  WebHook,
  'id' | 'type' | 'projectId' | 'groupId' | 'recentFailures' | 'disabledUntil' | 'deliveringBy' | 'deliveringUntil' | 'createdAt'
>;

/** A delivery to record: what is sent to which hook, for which event. */
export interface PendingDelivery {
  hook: WebHook;
  trigger: string;
  eventUuid: string;
  data: Record<string, unknown>;
}

function ownerFilter(owner: HookOwner) {
  if (owner.type === 'ProjectHook') return { type: owner.type, projectId: owner.projectId };
  if (owner.type === 'GroupHook') return { type: owner.type, groupId: owner.groupId };
  return { type: owner.type };
}

export class PgHookStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  list(owner: HookOwner, window: PageWindow): Promise<Page<WebHook>> {
    return findPage(this.#em, WebHook, ownerFilter(owner), { orderBy: { id: 'asc' }, window });
  }

  find(owner: HookOwner, id: number): Promise<WebHook | null> {
    return this.#em.findOne(WebHook, { ...ownerFilter(owner), id });
  }

  async create(owner: HookOwner, fields: HookFields): Promise<WebHook> {
    const hook = this.#em.create(WebHook, {
      ...fields,
      type: owner.type as HookType,
      projectId: owner.type === 'ProjectHook' ? owner.projectId : null,
      groupId: owner.type === 'GroupHook' ? owner.groupId : null,
      recentFailures: 0,
      disabledUntil: null,
      deliveringBy: null,
      deliveringUntil: null,
      createdAt: new Date(),
    });
    await this.#em.flush();
    return hook;
  }

  async update(hook: WebHook, fields: Partial<HookFields>): Promise<WebHook> {
    this.#em.assign(hook, fields);
    await this.#em.flush();
    return hook;
  }

  async remove(hook: WebHook): Promise<void> {
    await this.#em.remove(hook).flush();
  }

  /** The hooks an event of a project may go to: its own, its groups' (ancestors included), and the system hooks. */
  hooksForProject(projectId: number, namespaceIds: number[]): Promise<WebHook[]> {
    return this.#em.find(
      WebHook,
      { $or: [{ projectId }, ...(namespaceIds.length > 0 ? [{ groupId: { $in: namespaceIds } }] : []), { type: 'SystemHook' }] },
      { orderBy: { id: 'asc' } },
    );
  }

  /** The hooks of these groups: where a group's own events (members, projects, subgroups) go. */
  groupHooks(groupIds: number[]): Promise<WebHook[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.#em.find(WebHook, { type: 'GroupHook', groupId: { $in: groupIds } }, { orderBy: { id: 'asc' } });
  }

  systemHooks(): Promise<WebHook[]> {
    return this.#em.find(WebHook, { type: 'SystemHook' }, { orderBy: { id: 'asc' } });
  }

  /** Records deliveries and queues their jobs in the caller's transaction. */
  async recordPending(deliveries: PendingDelivery[]): Promise<void> {
    const logs = deliveries.map((delivery) =>
      this.#em.create(WebHookLog, {
        webHookId: delivery.hook.id,
        trigger: delivery.trigger,
        eventUuid: delivery.eventUuid,
        idempotencyKey: randomUUID(),
        url: delivery.hook.url,
        requestHeaders: {},
        requestData: delivery.data,
        responseHeaders: {},
        responseBody: '',
        responseStatus: '',
        internalErrorMessage: null,
        executionDuration: 0,
        state: 'pending',
        createdAt: new Date(),
      }),
    );
    await this.#em.flush();
    for (const log of logs) enqueueJob(this.#em, deliveryJob, { logId: log.id });
    await this.#em.flush();
  }

  /** A hook's sent deliveries, newest first, optionally only those with some statuses. */
  logs(hookId: number, statuses: string[] | undefined, window: PageWindow): Promise<Page<WebHookLog>> {
    return findPage(
      this.#em,
      WebHookLog,
      { webHookId: hookId, state: 'delivered', ...(statuses ? { responseStatus: { $in: statuses } } : {}) },
      { orderBy: { id: 'desc' }, window },
    );
  }

  findLog(hookId: number, logId: number): Promise<WebHookLog | null> {
    return this.#em.findOne(WebHookLog, { id: logId, webHookId: hookId, state: 'delivered' });
  }

  /** The hook a delivery goes to; undefined once the delivery or its hook is gone. */
  async hookOfDelivery(logId: number): Promise<number | undefined> {
    return (await this.#em.findOne(WebHookLog, { id: logId }))?.webHookId;
  }

  /**
   * Takes (or renews) the hook's delivery lease for `holder` unless another holder's lease runs:
   * one job at a time, on any replica, sends a hook's deliveries, so that they go out in order. The
   * lease is a column rather than a lock so that no database connection is held while a receiver
   * takes its time answering.
   */
  async leaseHook(options: { hookId: number; holder: string; ms: number }): Promise<boolean> {
    const rows = await this.#em.execute(
      `update web_hooks set delivering_by = ?, delivering_until = now() + (? * interval '1 millisecond')
       where id = ? and (delivering_until is null or delivering_until < now() or delivering_by = ?) returning id`,
      [options.holder, options.ms, options.hookId, options.holder],
    );
    return rows.length > 0;
  }

  async releaseHook(options: { hookId: number; holder: string }): Promise<void> {
    await this.#em.execute('update web_hooks set delivering_by = null, delivering_until = null where id = ? and delivering_by = ?', [
      options.hookId,
      options.holder,
    ]);
  }

  /** The hook and its oldest pending delivery; undefined when none is left. */
  async oldestPending(hookId: number): Promise<{ hook: WebHook; log: WebHookLog } | undefined> {
    const hook = await this.#em.findOne(WebHook, { id: hookId });
    const log = hook && (await this.#em.findOne(WebHookLog, { webHookId: hookId, state: 'pending' }, { orderBy: { id: 'asc' } }));
    return hook && log ? { hook, log } : undefined;
  }

  /** Queues the delivery's job again for `runAt` (its hook's lease was taken). */
  async deferDelivery(logId: number, runAt: Date): Promise<void> {
    enqueueJob(this.#em, deliveryJob, { logId }, { runAt });
    await this.#em.flush();
  }

  async setFailureState(hook: WebHook, state: FailureState, em: EntityManager = this.#em): Promise<void> {
    em.assign(hook, state);
    await em.flush();
  }

  /** Records a delivery made now (a test or a resend), sent already. */
  async recordSent(log: Omit<WebHookLog, 'id'>): Promise<WebHookLog> {
    const created = this.#em.create(WebHookLog, log);
    await this.#em.flush();
    return created;
  }
}
