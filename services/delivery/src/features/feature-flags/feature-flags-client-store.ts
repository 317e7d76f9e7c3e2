import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@platform/db';
import { recordEvent, type EventActor, type OutgoingEvent } from '@platform/events';
import { FeatureFlagsClient } from './feature-flag.entity.ts';

/** A new instance id, with the prefix GitLab gives feature flags client tokens. */
const newToken = () => `glffct-${randomBytes(15).toString('base64url')}`;

/** Each project's Unleash instance id. */
export class PgFeatureFlagsClientStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** The project's instance id, made on first use. */
  async tokenOf(projectId: number): Promise<string> {
    const em = this.#em.fork();
    const now = new Date();
    await em.execute(
      'insert into feature_flags_clients (project_id, token, created_at, updated_at) values (?, ?, ?, ?) on conflict (project_id) do nothing',
      [projectId, newToken(), now, now],
    );
    return (await em.findOneOrFail(FeatureFlagsClient, { projectId })).token;
  }

  /** Replaces the instance id; the old one stops working with the commit. */
  async reset(projectId: number, options: { events: OutgoingEvent[]; actor: EventActor | null }): Promise<string> {
    return this.#em.fork().transactional(async (em) => {
      const token = newToken();
      const now = new Date();
      await em.execute(
        `insert into feature_flags_clients (project_id, token, created_at, updated_at) values (?, ?, ?, ?)
         on conflict (project_id) do update set token = excluded.token, updated_at = excluded.updated_at`,
        [projectId, token, now, now],
      );
      for (const event of options.events) recordEvent(em, { ...event, actor: options.actor });
      return token;
    });
  }

  /**
   * The revision of what the project's Unleash clients are answered ('0' before any change), when
   * `token` is its instance id; null otherwise. One statement, read on every client request.
   */
  async revisionFor(projectId: number, token: string): Promise<string | null> {
    const rows = await this.#em.fork().execute<Array<{ revision: string }>>(
      `select coalesce(r.revision, 0)::text as revision
       from feature_flags_clients c left join feature_flag_revisions r on r.project_id = c.project_id
       where c.project_id = ? and c.token = ?`,
      [projectId, token],
    );
    return rows[0]?.revision ?? null;
  }

  /** Whether `token` is the project's instance id. */
  async authenticates(projectId: number, token: string): Promise<boolean> {
    return (await this.#em.fork().count(FeatureFlagsClient, { projectId, token })) === 1;
  }
}
