import { z } from 'zod';
import { RefusedError } from '@platform/errors';
import { params, routesOf } from '@platform/http';
import { gitRevision, repositoryPath } from '../repositories/repository-params.ts';
import { commitNoteViews } from './note-views.ts';
import { findNoteable, type FoundNoteable } from './noteable-lookup.ts';
import type { NewNoteKind } from './notes-service.ts';
import { noteBody, requireText, type NotesRouteDeps } from './notes-routes.ts';

const route = routesOf<NotesRouteDeps>('review');

/** The comment's place on a line its commit added (`new`) or removed (`old`); undefined when no such line is there, as GitLab then comments on the commit. */
async function onLine(
  found: FoundNoteable,
  line: { path: string; line: number; lineType: 'new' | 'old' },
): Promise<NewNoteKind | undefined> {
  if (!found.diffRefs || !found.diffNote) return undefined;
  const refs = found.diffRefs;
  try {
    return await found.diffNote({
      base_sha: refs.baseSha,
      start_sha: refs.startSha,
      head_sha: refs.headSha,
      position_type: 'text',
      old_path: line.path,
      new_path: line.path,
      ...(line.lineType === 'new' ? { new_line: line.line } : { old_line: line.line }),
    });
  } catch (error) {
    if (error instanceof RefusedError) return undefined;
    throw error;
  }
}

/**
 * A commit's comments (GitLab's commits API): listed oldest first, and added, on a line of the
 * commit's changes when `path`, `line` and `line_type` name one (otherwise on the commit itself,
 * as GitLab falls back).
 */
export const commitCommentsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/repository/commits/:sha/comments',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), sha: gitRevision() }),
    handle: async ({ caller, input, deps, window }) => {
      const { noteable } = await findNoteable(deps, { caller, path: 'commits', id: input.id, noteable: input.sha });
      const { items, total } = await deps.notes.list(noteable, { order: { by: 'created_at', sort: 'asc' }, ...window });
      return { items: await commitNoteViews({ users: deps.users, caller }, items), total };
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/repository/commits/:sha/comments',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z
      .object({
        id: params.idOrPath(),
        sha: gitRevision(),
        note: noteBody(),
        path: repositoryPath().optional(),
        line: params.integer().optional(),
        line_type: z.enum(['new', 'old']).default('new'),
      })
      .superRefine((input, context) => {
        if (input.path !== undefined && input.line === undefined)
          context.addIssue({ code: 'custom', path: ['line'], message: 'is missing' });
      }),
    handle: async ({ caller, input, deps }) => {
      const found = await findNoteable(deps, { caller, path: 'commits', id: input.id, noteable: input.sha });
      const { project, noteable } = found;
      const body = requireText(input.note);
      const kind =
        input.path !== undefined && input.line !== undefined
          ? await onLine(found, { path: input.path, line: input.line, lineType: input.line_type })
          : undefined;
      const note = await deps.notes.create({ project, noteable, caller, body, ...(kind ? { kind } : {}) });
      const [view] = await commitNoteViews({ users: deps.users, caller }, [note]);
      return view;
    },
  }),
];
