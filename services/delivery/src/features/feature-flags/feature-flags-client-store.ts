import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { FeatureFlagsClient } from './feature-flag.entity.ts';

/** A new instance id, with the prefix GitLab gives feature flags client tokens. */
const newToken = () => `glffct-${randomBytes(15).toString('base64url')}`;

/** What authenticates a project's Unleash clients and which revision of its flags they are answered. */
export interface UnleashClientState {
  token: string;
  revision: string;
}

/** Each project's Unleash instance id. */
export class PgFeatureFlagsClientStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** The project's instance id, made on first use. */
  async tokenOf(projectId: number): Promise<string> {
    const em = this.#em;
    const now = new Date();
    await em.execute(
      'insert into feature_flags_clients (project_id, token, created_at, updated_at) values (?, ?, ?, ?) on conflict (project_id) do nothing',
      [projectId, newToken(), now, now],
    );
    return (await em.findOneOrFail(FeatureFlagsClient, { projectId })).token;
  }

  /** Replaces the instance id, in the caller's transaction: the old one stops working with its commit. */
  async reset(projectId: number, options: { events: OutgoingEvent[]; actor: EventActor | null }): Promise<string> {
    const token = newToken();
    const now = new Date();
    await this.#em.execute(
      `insert into feature_flags_clients (project_id, token, created_at, updated_at) values (?, ?, ?, ?)
       on conflict (project_id) do update set token = excluded.token, updated_at = excluded.updated_at`,
      [projectId, token, now, now],
    );
    for (const event of options.events) recordEvent(this.#em, { ...event, actor: options.actor });
    return token;
  }

  /**
   * The project's instance id and the revision of what its Unleash clients are answered ('0'
   * before any change); null while it has no instance id. One indexed statement.
   */
  async clientStateOf(projectId: number): Promise<UnleashClientState | null> {
    const rows = await this.#em.execute<Array<{ token: string; revision: string }>>(
      `select c.token, coalesce(r.revision, 0)::text as revision
       from feature_flags_clients c left join feature_flag_revisions r on r.project_id = c.project_id
       where c.project_id = ?`,
      [projectId],
    );
    return rows[0] ?? null;
  }
}
