import type { EntityManager } from '@platform/db';
import { LabelCopy, type LabelType } from './label-copy.entity.ts';

/** Labels as their events last described them; in the unit of work it is given. */
export class PgLabelCopyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async save(label: LabelCopy): Promise<void> {
    await this.#em.upsert(LabelCopy, label);
  }

  async remove(type: LabelType, id: number): Promise<void> {
    await this.#em.nativeDelete(LabelCopy, { type, id });
  }

  /**
   * The labels with these titles that a project's merge requests and issues may carry: the
   * project's own, else its nearest group's (`namespaceIds` top-level first), in the order of `titles`.
   */
  async byTitles(options: { projectId: number; namespaceIds: number[]; titles: string[] }): Promise<LabelCopy[]> {
    if (options.titles.length === 0) return [];
    const found = await this.#em.find(LabelCopy, {
      title: { $in: options.titles },
      $or: [{ projectId: options.projectId }, ...(options.namespaceIds.length > 0 ? [{ groupId: { $in: options.namespaceIds } }] : [])],
    });
    // The project's label first, then the nearest group's.
    const rank = (label: LabelCopy) =>
      label.projectId !== null ? -options.namespaceIds.length - 1 : -options.namespaceIds.indexOf(label.groupId ?? 0);
    return options.titles.flatMap((title) => {
      const [nearest] = found.filter((label) => label.title === title).sort((a, b) => rank(a) - rank(b));
      return nearest ? [nearest] : [];
    });
  }
}
