import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { NotFoundError, RefusedError } from '@platform/errors';
import { params, routesOf } from '@platform/http';
import type { UserDirectory } from '../core/user-directory.ts';
import { noteViews, oneNoteView } from './note-views.ts';
import { findNoteable, type FoundNoteable, type NoteableDeps } from './noteable-lookup.ts';
import type { NotesService } from './notes-service.ts';

export interface NotesRouteDeps extends NoteableDeps {
  notes: NotesService;
  users: UserDirectory;
}

const route = routesOf<NotesRouteDeps>('review');
export const positive = () => params.integer().pipe(z.number().int().positive());
/** GitLab keeps notes of at most a million characters. */
export const noteBody = () => z.string().max(1_000_000);

/** A blank note fails GitLab's model validation, worded as its notes API words it. */
export function requireText(text: string): string {
  if (text.trim() === '') {
    throw new RefusedError('400 Bad request - Note {:note=>["can\'t be blank"]}');
  }
  return text;
}

/**
 * Shows and deletes one note at `path` (`.../notes/:note_id`): the notes API and the discussions
 * API name the same note, under the parameters of `shape`, found by `found`.
 */
export function noteRoutes(options: {
  path: string;
  shape: { id: ReturnType<typeof params.idOrPath> } & z.ZodRawShape;
  found: (deps: NotesRouteDeps, caller: Caller, input: { id: string | number }) => Promise<FoundNoteable>;
}) {
  const { found } = options;
  const input = z.object({ ...options.shape, note_id: positive() });
  return [
    route({
      method: 'GET',
      path: `${options.path}/:note_id`,
      access: 'user',
      scope: 'read_api',
      input,
      handle: async ({ caller, input, deps }) => {
        const { noteable } = await found(deps, caller, input);
        const [note] = await deps.notes.readableBy(caller, [await deps.notes.get(noteable, input.note_id)]);
        if (!note) throw new NotFoundError('Note');
        return oneNoteView({ users: deps.users, caller }, note);
      },
    }),
    route({
      method: 'DELETE',
      path: `${options.path}/:note_id`,
      access: 'user',
      scope: 'api',
      status: 204,
      input,
      handle: async ({ caller, input, deps }) => {
        const { project, noteable } = await found(deps, caller, input);
        await deps.notes.delete({ project, noteable, caller, noteId: input.note_id });
      },
    }),
  ];
}

/** The notes of merge requests (`:merge_request_iid`) or issues (`:issue_iid`): listed, shown, added, edited, deleted. */
function notesRoutesOf(path: 'merge_requests' | 'issues') {
  const iid = path === 'merge_requests' ? 'merge_request_iid' : 'issue_iid';
  const base = `/api/v4/projects/:id/${path}/:${iid}/notes`;
  // Typed as the merge requests' key; at run time the key is the path's own (`issue_iid` for issues), read back as `input[iid]`.
  const perNoteable = { id: params.idOrPath(), [iid]: positive() } as {
    id: ReturnType<typeof params.idOrPath>;
    merge_request_iid: ReturnType<typeof positive>;
  };
  const found = (deps: NotesRouteDeps, caller: Caller, input: { id: string | number }) =>
    findNoteable(deps, { caller, path, id: input.id, noteable: (input as Record<string, number>)[iid] as number });
  return [
    route.list({
      path: base,
      access: 'user',
      scope: 'read_api',
      input: z.object(perNoteable),
      order: { by: ['created_at', 'updated_at'], default: 'created_at', sort: 'desc' },
      handle: async ({ caller, input, deps, window, order }) => {
        const { noteable } = await found(deps, caller, input);
        const { items, total } = await deps.notes.list(noteable, { order, offset: window.offset, limit: window.limit });
        // As GitLab's, the page is read, then what the caller may not read left out of it.
        return { items: await noteViews({ users: deps.users, caller }, await deps.notes.readableBy(caller, items)), total };
      },
    }),
    ...noteRoutes({ path: base, shape: perNoteable, found }),
    route({
      method: 'POST',
      path: base,
      access: 'user',
      scope: 'api',
      status: 201,
      input: z.object({ ...perNoteable, body: noteBody() }),
      handle: async ({ caller, input, deps }) => {
        const { project, noteable } = await found(deps, caller, input);
        const note = await deps.notes.create({ project, noteable, caller, body: requireText(input.body) });
        return oneNoteView({ users: deps.users, caller }, note);
      },
    }),
    route({
      method: 'PUT',
      path: `${base}/:note_id`,
      access: 'user',
      scope: 'api',
      input: z.object({ ...perNoteable, note_id: positive(), body: noteBody() }),
      handle: async ({ caller, input, deps }) => {
        const { project, noteable } = await found(deps, caller, input);
        const note = await deps.notes.update({ project, noteable, caller, noteId: input.note_id, body: requireText(input.body) });
        return oneNoteView({ users: deps.users, caller }, note);
      },
    }),
  ];
}

export const notesRoutes = [...notesRoutesOf('merge_requests'), ...notesRoutesOf('issues')];
