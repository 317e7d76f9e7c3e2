import type { UserSummary } from '../core/user-directory.ts';
import type { Note } from './note.entity.ts';

/** A note as GitLab's notes and discussions APIs show it. */
export function noteView(note: Note, users: Map<number, UserSummary>) {
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

/** The users a list of notes shows: their authors and who resolved them. */
export function noteUserIds(notes: Note[]): number[] {
  return [...new Set(notes.flatMap((note) => [note.authorId, ...(note.resolvedById ? [note.resolvedById] : [])]))];
}

/** A discussion as GitLab shows it: its id, whether it is a lone comment, and its notes oldest first. */
export function discussionView(notes: Note[], users: Map<number, UserSummary>) {
  const [first] = notes as [Note, ...Note[]];
  return { id: first.discussionId, individual_note: first.type === null, notes: notes.map((note) => noteView(note, users)) };
}

/** A comment of a commit as the commits API shows it (GitLab's `CommitNote`): its file line when it is on one. */
export function commitNoteView(note: Note, users: Map<number, UserSummary>) {
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
