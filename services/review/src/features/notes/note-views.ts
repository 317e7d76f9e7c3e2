import type { UserSummary } from '../core/user-directory.ts';
import type { Note } from './note.entity.ts';

/** A note as GitLab's notes API shows it. */
export function noteView(note: Note, users: Map<number, UserSummary>) {
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: users.get(note.authorId) ?? null,
    created_at: note.createdAt.toISOString(),
    updated_at: note.updatedAt.toISOString(),
    system: note.system,
    noteable_id: note.noteableId,
    noteable_type: note.noteableType,
    project_id: note.projectId,
    noteable_iid: note.noteableIid,
    resolvable: false,
    confidential: false,
    internal: false,
    imported: false,
    imported_from: 'none',
    commands_changes: {},
  };
}
