import type { EntityManager } from '@platform/db';
import { insertUnlessPresent } from '@platform/db';
import type { EventActor } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { reviewEvents } from '@platform/review-client';
import { ProtectedTag, ProtectedTagCreateAccessLevel } from './protected-tag.entity.ts';

/** Protected tags' writes, in the unit of work (and transaction) the service opened. */
export interface ProtectedTagStore {
  /** The new protected tag's id, or null when the project protects that name already; with its event. */
  insert(input: { projectId: number; name: string; createAccessLevels: number[]; actor: EventActor | null }): Promise<number | null>;
  /** False when the project protects no such name; with its event. */
  delete(input: { projectId: number; name: string; actor: EventActor | null }): Promise<boolean>;
}

export class PgProtectedTagStore implements ProtectedTagStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async insert(input: { projectId: number; name: string; createAccessLevels: number[]; actor: EventActor | null }): Promise<number | null> {
    const now = new Date();
    const tag = await insertUnlessPresent(this.#em, ProtectedTag, {
      projectId: input.projectId,
      name: input.name,
      createdAt: now,
      updatedAt: now,
    });
    if (!tag) return null;
    for (const accessLevel of input.createAccessLevels)
      this.#em.create(ProtectedTagCreateAccessLevel, { protectedTagId: tag.id, accessLevel });
    await this.#em.flush();
    this.#record(reviewEvents.protectedTagCreated, tag, input.actor);
    return tag.id;
  }

  async delete(input: { projectId: number; name: string; actor: EventActor | null }): Promise<boolean> {
    const tag = await this.#em.findOne(ProtectedTag, { projectId: input.projectId, name: input.name });
    if (!tag) return false;
    await this.#em.nativeDelete(ProtectedTag, { id: tag.id });
    this.#record(reviewEvents.protectedTagDeleted, tag, input.actor);
    return true;
  }

  #record(
    definition: typeof reviewEvents.protectedTagCreated,
    tag: { id: number; projectId: number; name: string },
    actor: EventActor | null,
  ) {
    recordEvent(this.#em, {
      ...definition.event({ aggregateId: tag.projectId, data: { projectId: tag.projectId, protectedTagId: tag.id, name: tag.name } }),
      actor,
    });
  }
}
