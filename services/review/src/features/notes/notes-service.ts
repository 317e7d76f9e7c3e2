import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import { ACCESS_LEVEL, type ProjectAccess } from '@platform/identity-client';
import type { EntityManager } from '@platform/db';
import { reviewEvents } from '@platform/review-client';
import type { MergeRequest } from '../merge-requests/merge-request.entity.ts';
import { isMember } from '../merge-requests/merge-request-lookup.ts';
import type { Note } from './note.entity.ts';
import type { NoteOrder, NoteStore } from './notes-store.ts';

/** The event payload of a note as it is now, naming the merge request it is on. */
function eventOf(note: Note, mergeRequest: MergeRequest) {
  return {
    aggregateId: note.projectId,
    data: {
      projectId: note.projectId,
      noteId: note.id,
      body: note.body,
      noteableType: note.noteableType,
      noteableId: note.noteableId,
      noteableIid: note.noteableIid,
      noteableTitle: mergeRequest.title,
      authorId: note.authorId,
      system: note.system,
      createdAt: note.createdAt.toISOString(),
    },
  };
}

/**
 * Comments on merge requests, as GitLab's notes: whoever may read a merge request comments on it
 * unless its discussion is locked to members; authors edit their notes, and maintainers may
 * delete anybody's.
 */
export class NotesService {
  readonly #em: EntityManager;
  readonly #store: NoteStore;

  constructor(options: { em: EntityManager; store: NoteStore }) {
    this.#em = options.em;
    this.#store = options.store;
  }

  list(mergeRequest: MergeRequest, options: { order: NoteOrder; offset: number; limit: number }) {
    return this.#store.list({ noteableId: mergeRequest.id, ...options });
  }

  async get(mergeRequest: MergeRequest, noteId: number): Promise<Note> {
    const found = await this.#store.find(mergeRequest.id, noteId);
    if (!found) throw new NotFoundError('Note');
    return found;
  }

  async create(options: { project: ProjectAccess; mergeRequest: MergeRequest; caller: AuthenticatedCaller; body: string }): Promise<Note> {
    const { project, mergeRequest, caller } = options;
    this.#requireOpenDiscussion(project, mergeRequest);
    const now = new Date();
    return this.#em.transactional(() =>
      this.#store.create({
        note: {
          projectId: project.id,
          noteableType: 'MergeRequest',
          noteableId: mergeRequest.id,
          noteableIid: mergeRequest.iid,
          authorId: caller.userId,
          body: options.body,
          system: false,
          createdAt: now,
          updatedAt: now,
        },
        event: (created) => reviewEvents.noteCreated.event(eventOf(created, mergeRequest)),
        actor: actorOf(caller),
      }),
    );
  }

  async update(options: {
    project: ProjectAccess;
    mergeRequest: MergeRequest;
    caller: AuthenticatedCaller;
    noteId: number;
    body: string;
  }): Promise<Note> {
    const { project, mergeRequest, caller } = options;
    const note = await this.get(mergeRequest, options.noteId);
    if (note.authorId !== caller.userId || note.system) throw new ForbiddenError();
    this.#requireOpenDiscussion(project, mergeRequest);
    note.body = options.body;
    note.updatedAt = new Date();
    await this.#em.transactional(() =>
      this.#store.save({ note, event: reviewEvents.noteUpdated.event(eventOf(note, mergeRequest)), actor: actorOf(caller) }),
    );
    return note;
  }

  async delete(options: { project: ProjectAccess; mergeRequest: MergeRequest; caller: AuthenticatedCaller; noteId: number }) {
    const { project, mergeRequest, caller } = options;
    const note = await this.get(mergeRequest, options.noteId);
    const maintainer = project.isAdmin || project.accessLevel >= ACCESS_LEVEL.MAINTAINER;
    if (note.authorId !== caller.userId && !maintainer) throw new ForbiddenError();
    this.#requireOpenDiscussion(project, mergeRequest);
    await this.#em.transactional(() =>
      this.#store.delete({ note, event: reviewEvents.noteDeleted.event(eventOf(note, mergeRequest)), actor: actorOf(caller) }),
    );
  }

  /** Comments per merge request id, for `user_notes_count`. */
  userNotesCounts(mergeRequests: MergeRequest[]): Promise<Map<number, number>> {
    return this.#store.userNotesCounts(mergeRequests.map((mergeRequest) => mergeRequest.id));
  }

  #requireOpenDiscussion(project: ProjectAccess, mergeRequest: MergeRequest): void {
    if (mergeRequest.discussionLocked && !isMember(project)) throw new ForbiddenError();
  }
}
