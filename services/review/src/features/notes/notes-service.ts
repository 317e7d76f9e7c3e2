import { randomBytes } from 'node:crypto';
import { actorOf, type AuthenticatedCaller, type Caller } from '@platform/auth';
import { ForbiddenError, NotFoundError, RefusedError } from '@platform/errors';
import { ACCESS_LEVEL, hasProjectAccess, type IdentityAccess, type ProjectAccess } from '@platform/identity-client';
import type { EntityManager } from '@platform/db';
import type { EventActor } from '@platform/events';
import { reviewEvents } from '@platform/review-client';
import { isMember } from '../merge-requests/merge-request-lookup.ts';
import { mentionKey, mentionsIn } from '../issues/closing-references.ts';
import type { IssuableMentions } from '../core/issuable-history.ts';
import { crossReferenceBody, mayReadMentionable, mentionableNoteable, type MentionedIn } from './cross-references.ts';
import { projectsSeenBy } from '../core/projects-seen.ts';
import type { Note, NotePosition } from './note.entity.ts';
import { takesResolvableThreads, type Noteable } from './noteable.ts';
import type { NoteOrder, NoteStore } from './notes-store.ts';

/** The event payload of a note as it is now, naming what it is on. */
function eventOf(note: Note, noteable: Noteable) {
  return {
    aggregateId: note.projectId,
    data: {
      projectId: note.projectId,
      noteId: note.id,
      body: note.body,
      noteableType: note.noteableType,
      noteableId: note.noteableId ?? 0,
      noteableIid: note.noteableIid ?? 0,
      noteableTitle: noteable.title,
      authorId: note.authorId,
      system: note.system,
      createdAt: note.createdAt.toISOString(),
      commitId: note.commitId ?? '',
    },
  };
}

/** A new discussion's id: forty hexadecimal digits, as GitLab's. */
function newDiscussionId(): string {
  return randomBytes(20).toString('hex');
}

/** How a new note starts: a lone comment (`null`), a thread, or a thread on a line of a diff. */
export type NewNoteKind =
  | { type: null }
  | { type: 'DiscussionNote' }
  | { type: 'DiffNote'; position: NotePosition; versionId: number | null; commitId: string | null };

/**
 * Notes on merge requests, issues and commits, grouped in discussions, as GitLab's: whoever may
 * read what a note is on comments on it unless its discussion is locked to members; authors edit
 * their notes, and maintainers may delete anybody's. Threads on merge requests are resolvable, by
 * the merge request's author and by whoever may push to the project.
 */
export class NotesService {
  readonly #em: EntityManager;
  readonly #store: NoteStore;
  readonly #access: IdentityAccess;

  constructor(options: { em: EntityManager; store: NoteStore; access: IdentityAccess }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#access = options.access;
  }

  list(noteable: Noteable, options: { order: NoteOrder; offset: number; limit: number }) {
    return this.#store.list({ noteable, ...options });
  }

  async get(noteable: Noteable, noteId: number): Promise<Note> {
    const found = await this.#store.find(noteable, noteId);
    if (!found) throw new NotFoundError('Note');
    return found;
  }

  /** A page of discussions, each its notes oldest first, the oldest discussion first. */
  async discussions(noteable: Noteable, window: { offset: number; limit: number }): Promise<{ items: Note[][]; total: number }> {
    const ids = await this.#store.discussionIds({ noteable, ...window });
    const notes = await this.#store.discussionNotes(noteable, ids.items);
    return { items: ids.items.map((id) => notes.filter((note) => note.discussionId === id)), total: ids.total };
  }

  /** The notes of one discussion, oldest first; 404 Discussion Not Found when it has none. */
  async discussion(noteable: Noteable, discussionId: string, missing = 'Discussion'): Promise<Note[]> {
    const notes = await this.#store.discussionNotes(noteable, [discussionId]);
    if (notes.length === 0) throw new NotFoundError(missing);
    return notes;
  }

  async create(options: {
    project: ProjectAccess;
    noteable: Noteable;
    caller: AuthenticatedCaller;
    body: string;
    kind?: NewNoteKind;
  }): Promise<Note> {
    const { project, noteable, caller } = options;
    const kind = options.kind ?? { type: null };
    this.#requireOpenDiscussion(project, noteable);
    return this.#em.transactional(async () => {
      const note = await this.#insert({
        noteable,
        actor: actorOf(caller),
        authorId: caller.userId,
        body: options.body,
        system: false,
        type: kind.type,
        discussionId: newDiscussionId(),
        ...(kind.type === 'DiffNote' ? { position: kind.position, versionId: kind.versionId, commitId: kind.commitId } : {}),
      });
      await this.recordCrossReferences({ mentioner: noteable, text: options.body, author: caller });
      return note;
    });
  }

  /**
   * A system note: the platform's record of a change, by whoever made it. Written in the caller's
   * transaction, the change's own, so that it is there as soon as the change is.
   */
  recordSystemNote(options: { noteable: Noteable; actor: EventActor; body: string }): Promise<Note> {
    return this.#insert({ ...options, authorId: options.actor.id, system: true, type: null, discussionId: newDiscussionId() });
  }

  /**
   * GitLab's cross references: a system note "mentioned in merge request !3" (or "in issue #5",
   * with the mentioner's project from another project) on each merge request and issue that the
   * text of `mentioner` (its title and description, or a comment on it) mentions anew and that the
   * author may read, once per mentioner; in the caller's transaction. Commits mention nothing here.
   */
  async recordCrossReferences(options: IssuableMentions & { mentioner: Noteable }): Promise<void> {
    const { mentioner, author } = options;
    if (mentioner.type === 'Commit' || mentioner.id === null || mentioner.iid === null) return;
    const earlier = new Set(mentionsIn(options.previousText ?? '').map(mentionKey));
    const mentions = mentionsIn(options.text).filter((mention) => !earlier.has(mentionKey(mention)));
    if (mentions.length === 0) return;
    const projectOf = projectsSeenBy(this.#access, author);
    const home = await projectOf(String(mentioner.projectId));
    if (!home) return;
    const mentionedIn: MentionedIn = { type: mentioner.type, id: mentioner.id };
    for (const mention of mentions) {
      const project = mention.projectPath === null ? home : await projectOf(mention.projectPath);
      if (!project || (mention.projectUrl !== null && project.webUrl.toLowerCase() !== mention.projectUrl)) continue;
      const mentioned = await this.#store.mentionable({ type: mention.type, projectId: project.id, iid: mention.iid });
      if (!mentioned || (mentioned.type === mentioner.type && mentioned.id === mentioner.id)) continue;
      if (!mayReadMentionable(project, author, mentioned)) continue;
      const noteable = mentionableNoteable(mentioned);
      if (await this.#store.crossReferenced({ noteable, mentionedIn })) continue;
      await this.#insert({
        noteable,
        actor: actorOf(author),
        authorId: author.userId,
        body: crossReferenceBody({ mentioner: { type: mentioner.type, iid: mentioner.iid }, from: home, to: project }),
        system: true,
        type: null,
        discussionId: newDiscussionId(),
        mentionedIn,
      });
    }
  }

  /**
   * The notes the caller may read: cross-reference notes only when the caller may read their
   * mentioner (GitLab's `cross_reference_not_visible_for?`), gone with it once it is deleted.
   */
  async readableBy(caller: Caller, notes: Note[]): Promise<Note[]> {
    const projectOf = projectsSeenBy(this.#access, caller);
    const readable: Note[] = [];
    for (const note of notes) {
      if (!note.mentionedInType || !note.mentionedInId) {
        readable.push(note);
        continue;
      }
      const type = note.mentionedInType === 'Issue' ? 'Issue' : 'MergeRequest';
      const mentioner = await this.#store.mentionable({ type, id: note.mentionedInId });
      const project = mentioner && (await projectOf(String(mentioner.projectId)));
      if (mentioner && project && mayReadMentionable(project, caller, mentioner)) readable.push(note);
    }
    return readable;
  }

  /** A reply to a discussion; replying to a lone comment on a merge request or an issue turns it into a thread. */
  async reply(options: {
    project: ProjectAccess;
    noteable: Noteable;
    caller: AuthenticatedCaller;
    discussionId: string;
    body: string;
  }): Promise<Note> {
    const { project, noteable, caller } = options;
    const notes = await this.discussion(noteable, options.discussionId);
    const [first] = notes as [Note, ...Note[]];
    const convertible = first.type === null && !first.system && noteable.type !== 'Commit';
    if (first.type === null && !convertible) throw new RefusedError('400 Bad request - Discussion can not be replied to.');
    this.#requireOpenDiscussion(project, noteable);
    return this.#em.transactional(async () => {
      if (convertible) {
        first.type = 'DiscussionNote';
        first.resolvable = takesResolvableThreads(noteable);
        await this.#store.save({ notes: [first], events: [], actor: actorOf(caller) });
      }
      const note = await this.#insert({
        noteable,
        actor: actorOf(caller),
        authorId: caller.userId,
        body: options.body,
        system: false,
        type: 'DiscussionNote',
        discussionId: first.discussionId,
      });
      await this.recordCrossReferences({ mentioner: noteable, text: options.body, author: caller });
      return note;
    });
  }

  async update(options: {
    project: ProjectAccess;
    noteable: Noteable;
    caller: AuthenticatedCaller;
    noteId: number;
    body: string;
  }): Promise<Note> {
    const { project, noteable, caller } = options;
    const note = await this.get(noteable, options.noteId);
    if (note.authorId !== caller.userId || note.system) throw new ForbiddenError();
    this.#requireOpenDiscussion(project, noteable);
    const previousText = note.body;
    note.body = options.body;
    note.updatedAt = new Date();
    await this.#em.transactional(async () => {
      await this.#store.save({ notes: [note], events: [reviewEvents.noteUpdated.event(eventOf(note, noteable))], actor: actorOf(caller) });
      await this.recordCrossReferences({ mentioner: noteable, text: note.body, previousText, author: caller });
    });
    return note;
  }

  async delete(options: { project: ProjectAccess; noteable: Noteable; caller: AuthenticatedCaller; noteId: number }) {
    const { project, noteable, caller } = options;
    const note = await this.get(noteable, options.noteId);
    const maintainer = project.isAdmin || project.accessLevel >= ACCESS_LEVEL.MAINTAINER;
    if (note.authorId !== caller.userId && !maintainer) throw new ForbiddenError();
    this.#requireOpenDiscussion(project, noteable);
    await this.#em.transactional(() =>
      this.#store.delete({ note, event: reviewEvents.noteDeleted.event(eventOf(note, noteable)), actor: actorOf(caller) }),
    );
  }

  /** Resolves or unresolves one note of a thread: 403 for whoever may not, 400 for a note that is not resolvable. */
  async resolveNote(options: {
    project: ProjectAccess;
    noteable: Noteable;
    caller: AuthenticatedCaller;
    noteId: number;
    resolved: boolean;
  }): Promise<Note> {
    const note = await this.get(options.noteable, options.noteId);
    if (!this.#mayResolve(options.project, options.noteable, options.caller)) throw new ForbiddenError();
    if (!note.resolvable) throw new RefusedError('400 Bad request - Note is not resolvable');
    await this.#resolve([note], options.caller, options.resolved);
    return note;
  }

  /** Resolves or unresolves every resolvable note of a thread: 403 for whoever may not or a thread that is not resolvable. */
  async resolveDiscussion(options: {
    project: ProjectAccess;
    noteable: Noteable;
    caller: AuthenticatedCaller;
    discussionId: string;
    resolved: boolean;
  }): Promise<Note[]> {
    const notes = await this.discussion(options.noteable, options.discussionId);
    const resolvable = notes.filter((note) => note.resolvable);
    if (resolvable.length === 0 || !this.#mayResolve(options.project, options.noteable, options.caller)) throw new ForbiddenError();
    await this.#resolve(resolvable, options.caller, options.resolved);
    return notes;
  }

  /** Comments per merge request id, for `user_notes_count`. */
  userNotesCounts(mergeRequestIds: number[]): Promise<Map<number, number>> {
    return this.#store.userNotesCounts(mergeRequestIds);
  }

  /** Unresolved threads' notes per merge request id: a merge request with none has its blocking discussions resolved. */
  unresolvedCounts(mergeRequestIds: number[]): Promise<Map<number, number>> {
    return this.#store.unresolvedCounts(mergeRequestIds);
  }

  async #resolve(notes: Note[], caller: AuthenticatedCaller, resolved: boolean): Promise<void> {
    const now = new Date();
    const changed = notes.filter((note) => (note.resolvedAt !== null) !== resolved);
    for (const note of changed) {
      note.resolvedAt = resolved ? now : null;
      note.resolvedById = resolved ? caller.userId : null;
    }
    if (changed.length > 0) await this.#em.transactional(() => this.#store.save({ notes: changed, events: [], actor: actorOf(caller) }));
  }

  /** Adds the note and its event, in the caller's transaction. */
  #insert(options: {
    noteable: Noteable;
    actor: EventActor;
    authorId: number;
    body: string;
    system: boolean;
    type: Note['type'];
    discussionId: string;
    position?: NotePosition;
    versionId?: number | null;
    commitId?: string | null;
    mentionedIn?: MentionedIn;
  }): Promise<Note> {
    const { noteable } = options;
    const now = new Date();
    return this.#store.create({
      note: {
        projectId: noteable.projectId,
        noteableType: noteable.type,
        noteableId: noteable.id,
        noteableIid: noteable.iid,
        type: options.type,
        discussionId: options.discussionId,
        commitId: noteable.commitId ?? options.commitId ?? null,
        position: options.position ?? null,
        mergeRequestDiffId: options.versionId ?? null,
        authorId: options.authorId,
        body: options.body,
        system: options.system,
        resolvable: options.type !== null && !options.system && takesResolvableThreads(noteable),
        resolvedAt: null,
        resolvedById: null,
        mentionedInType: options.mentionedIn?.type ?? null,
        mentionedInId: options.mentionedIn?.id ?? null,
        createdAt: now,
        updatedAt: now,
      },
      event: (created) => reviewEvents.noteCreated.event(eventOf(created, noteable)),
      actor: options.actor,
    });
  }

  /** GitLab's `resolve_note`: the merge request's author, and whoever may push to the project. */
  #mayResolve(project: ProjectAccess, noteable: Noteable, caller: AuthenticatedCaller): boolean {
    return noteable.authorId === caller.userId || hasProjectAccess(project, { minimumLevel: ACCESS_LEVEL.DEVELOPER });
  }

  #requireOpenDiscussion(project: ProjectAccess, noteable: Noteable): void {
    if (noteable.locked && !isMember(project)) throw new ForbiddenError();
  }
}
