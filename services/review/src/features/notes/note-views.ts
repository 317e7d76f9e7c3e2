import type { Caller } from '@platform/auth';
import type { UserDirectory, UserSummary } from '../core/user-directory.ts';
import type { Note } from './note.entity.ts';

/** A note as GitLab's notes and discussions APIs show it. */
function noteView(note: Note, users: Map<number, UserSummary>) {
  const diffNote = note.type === 'DiffNote';
  return {
    id: note.id,
    type: note.type,
    body: note.body,
    attachment: null,
    author: users.get(note.authorId) ?? null,
    created_at: note.createdAt.toISOString(),
    updated_at: note.updatedAt.toISOString(),
    system: note.system,
    noteable_id: note.noteableId,
    noteable_type: note.noteableType,
    project_id: note.projectId,
    ...(diffNote && note.noteableType === 'MergeRequest' ? { commit_id: note.commitId } : {}),
    ...(diffNote ? { position: note.position } : {}),
    resolvable: note.resolvable,
    ...(note.resolvable
      ? {
          resolved: note.resolvedAt !== null,
          resolved_by: note.resolvedById ? (users.get(note.resolvedById) ?? null) : null,
          resolved_at: note.resolvedAt?.toISOString() ?? null,
        }
      : {}),
    confidential: false,
    internal: false,
    imported: false,
    imported_from: 'none',
    noteable_iid: note.noteableIid,
    commands_changes: {},
  };
}

/** Where the users notes show are looked up, as the caller may see them. */
export interface NoteViewer {
  users: UserDirectory;
  caller: Caller;
}

/** The users notes show, looked up at once: their authors and who resolved them. */
function usersOf(viewer: NoteViewer, notes: Note[]): Promise<Map<number, UserSummary>> {
  const ids = new Set(notes.flatMap((note) => [note.authorId, ...(note.resolvedById ? [note.resolvedById] : [])]));
  return viewer.users.users([...ids], viewer.caller);
}

/** A discussion as GitLab shows it: its id, whether it is a lone comment, and its notes oldest first. */
function discussionView(notes: Note[], users: Map<number, UserSummary>) {
  const [first] = notes as [Note, ...Note[]];
  return { id: first.discussionId, individual_note: first.type === null, notes: notes.map((note) => noteView(note, users)) };
}

/** Notes as GitLab shows them. */
export async function noteViews(viewer: NoteViewer, notes: Note[]) {
  const users = await usersOf(viewer, notes);
  return notes.map((note) => noteView(note, users));
}

/** One note as GitLab shows it. */
export async function oneNoteView(viewer: NoteViewer, note: Note) {
  const [view] = await noteViews(viewer, [note]);
  return view;
}

/** Discussions as GitLab shows them. */
export async function discussionViews(viewer: NoteViewer, discussions: Note[][]) {
  const users = await usersOf(viewer, discussions.flat());
  return discussions.map((notes) => discussionView(notes, users));
}

/** One discussion as GitLab shows it. */
export async function oneDiscussionView(viewer: NoteViewer, notes: Note[]) {
  const [view] = await discussionViews(viewer, [notes]);
  return view;
}

/** A comment of a commit as the commits API shows it (GitLab's `CommitNote`): its file line when it is on one. */
function commitNoteView(note: Note, users: Map<number, UserSummary>) {
  const position = note.type === 'DiffNote' ? note.position : null;
  return {
    note: note.body,
    path: position ? position.new_path : null,
    line: position ? (position.new_line ?? position.old_line) : null,
    line_type: position ? (position.new_line === null ? 'old' : 'new') : null,
    author: users.get(note.authorId) ?? null,
    created_at: note.createdAt.toISOString(),
  };
}

/** Comments of a commit as the commits API shows them. */
export async function commitNoteViews(viewer: NoteViewer, notes: Note[]) {
  const users = await usersOf(viewer, notes);
  return notes.map((note) => commitNoteView(note, users));
}
