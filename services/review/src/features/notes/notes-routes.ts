import { z } from 'zod';
import { RefusedError } from '@platform/errors';
import { params, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import { readableMergeRequest } from '../merge-requests/merge-request-lookup.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { noteView } from './note-views.ts';
import type { NotesService } from './notes-service.ts';

export interface NotesRouteDeps {
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
  notes: NotesService;
  users: UserDirectory;
}

const route = routesOf<NotesRouteDeps>('review');
const positive = () => params.integer().pipe(z.number().int().positive());
const perMergeRequest = { id: params.idOrPath(), merge_request_iid: positive() };
/** GitLab keeps notes of at most a million characters. */
const body = () => z.string().max(1_000_000);

/** A blank note fails GitLab's model validation, worded as its notes API words it. */
function requireText(text: string): string {
  if (text.trim() === '') {
    throw new RefusedError('400 Bad request - Note {:note=>["can\'t be blank"]}');
  }
  return text;
}

export const notesRoutes = [
  route.list({
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/notes',
    access: 'user',
    scope: 'read_api',
    input: z.object(perMergeRequest),
    order: { by: ['created_at', 'updated_at'], default: 'created_at', sort: 'desc' },
    handle: async ({ caller, input, deps, window, order }) => {
      const { mergeRequest } = await readableMergeRequest(deps, caller, input);
      const { items, total } = await deps.notes.list(mergeRequest, { order, offset: window.offset, limit: window.limit });
      const users = await deps.users.users(
        items.map((note) => note.authorId),
        caller,
      );
      return { items: items.map((note) => noteView(note, users)), total };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/notes/:note_id',
    access: 'user',
    scope: 'read_api',
    input: z.object({ ...perMergeRequest, note_id: positive() }),
    handle: async ({ caller, input, deps }) => {
      const { mergeRequest } = await readableMergeRequest(deps, caller, input);
      const note = await deps.notes.get(mergeRequest, input.note_id);
      return noteView(note, await deps.users.users([note.authorId], caller));
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/notes',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ ...perMergeRequest, body: body() }),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await readableMergeRequest(deps, caller, input);
      const note = await deps.notes.create({ project, mergeRequest, caller, body: requireText(input.body) });
      return noteView(note, await deps.users.users([note.authorId], caller));
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/notes/:note_id',
    access: 'user',
    scope: 'api',
    input: z.object({ ...perMergeRequest, note_id: positive(), body: body() }),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await readableMergeRequest(deps, caller, input);
      const note = await deps.notes.update({ project, mergeRequest, caller, noteId: input.note_id, body: requireText(input.body) });
      return noteView(note, await deps.users.users([note.authorId], caller));
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/notes/:note_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ ...perMergeRequest, note_id: positive() }),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await readableMergeRequest(deps, caller, input);
      await deps.notes.delete({ project, mergeRequest, caller, noteId: input.note_id });
    },
  }),
];
