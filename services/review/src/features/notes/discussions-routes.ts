import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { InputError, NotFoundError } from '@platform/errors';
import { params, routesOf } from '@platform/http';
import { gitRevision } from '../repositories/repository-params.ts';
import type { PositionInput } from './diff-position.ts';
import { discussionViews, oneDiscussionView, oneNoteView } from './note-views.ts';
import { findNoteable, type NoteablePath } from './noteable-lookup.ts';
import { noteBody, noteRoutes, positive, requireText, type NotesRouteDeps } from './notes-routes.ts';

const route = routesOf<NotesRouteDeps>('review');

/** GitLab's `position` of a new diff thread; only positions on lines of text are taken. */
const position = () =>
  z.object({
    base_sha: z.string(),
    start_sha: z.string(),
    head_sha: z.string(),
    position_type: z.enum(['text']),
    old_path: z.string().optional(),
    new_path: z.string().optional(),
    old_line: params.integer().optional(),
    new_line: params.integer().optional(),
  });

/**
 * The discussions of merge requests, issues or commits (GitLab's discussions API): listed oldest
 * first, shown, started (on merge requests and commits, on a line of a diff with `position`),
 * replied to, their notes edited, resolved (merge requests) and deleted; whole threads resolved on
 * merge requests.
 */
function discussionRoutesOf(path: NoteablePath) {
  const noteableParam = path === 'merge_requests' ? 'merge_request_iid' : path === 'issues' ? 'issue_iid' : 'commit_id';
  const base =
    path === 'commits'
      ? `/api/v4/projects/:id/repository/commits/:${noteableParam}/discussions`
      : `/api/v4/projects/:id/${path}/:${noteableParam}/discussions`;
  // Typed as one key; at run time the key is the path's own, read back as `input[noteableParam]`.
  const perNoteable = { id: params.idOrPath(), [noteableParam]: path === 'commits' ? gitRevision() : positive() } as {
    id: ReturnType<typeof params.idOrPath>;
    noteable: ReturnType<typeof positive>;
  };
  const perDiscussion = { ...perNoteable, discussion_id: z.string().min(1) };
  const found = (deps: NotesRouteDeps, caller: Caller, input: { id: string | number }) =>
    findNoteable(deps, {
      caller,
      path,
      id: input.id,
      noteable: (input as Record<string, string | number>)[noteableParam] as string | number,
    });
  const routes = [
    route.list({
      path: base,
      access: 'user',
      scope: 'read_api',
      input: z.object(perNoteable),
      handle: async ({ caller, input, deps, window }) => {
        const { noteable } = await found(deps, caller, input);
        const { items, total } = await deps.notes.discussions(noteable, window);
        // As GitLab's, the page is read, then the notes the caller may not read left out of it
        // (judged once for the page, each mentioner's project asked once).
        const readable = new Set(await deps.notes.readableBy(caller, items.flat()));
        const shown = items.map((notes) => notes.filter((note) => readable.has(note))).filter((notes) => notes.length > 0);
        return { items: await discussionViews({ users: deps.users, caller }, shown), total };
      },
    }),
    route({
      method: 'GET',
      path: `${base}/:discussion_id`,
      access: 'user',
      scope: 'read_api',
      input: z.object(perDiscussion),
      handle: async ({ caller, input, deps }) => {
        const { noteable } = await found(deps, caller, input);
        const notes = await deps.notes.readableBy(caller, await deps.notes.discussion(noteable, input.discussion_id));
        if (notes.length === 0) throw new NotFoundError('Discussion');
        return oneDiscussionView({ users: deps.users, caller }, notes);
      },
    }),
    route({
      method: 'POST',
      path: base,
      access: 'user',
      scope: 'api',
      status: 201,
      input: z.object({
        ...perNoteable,
        body: noteBody(),
        ...(path === 'issues' ? {} : { position: position().optional() }),
        ...(path === 'merge_requests' ? { commit_id: z.string().optional() } : {}),
      }),
      handle: async ({ caller, input, deps }) => {
        const { project, noteable, diffNote } = await found(deps, caller, input);
        const body = requireText(input.body);
        const given = input as { position?: PositionInput; commit_id?: string };
        const kind =
          given.position && diffNote
            ? { ...(await diffNote(given.position)), ...(given.commit_id ? { commitId: given.commit_id } : {}) }
            : { type: 'DiscussionNote' as const };
        const note = await deps.notes.create({ project, noteable, caller, body, kind });
        return oneDiscussionView({ users: deps.users, caller }, [note]);
      },
    }),
    route({
      method: 'POST',
      path: `${base}/:discussion_id/notes`,
      access: 'user',
      scope: 'api',
      status: 201,
      input: z.object({ ...perDiscussion, body: noteBody() }),
      handle: async ({ caller, input, deps }) => {
        const { project, noteable } = await found(deps, caller, input);
        const note = await deps.notes.reply({
          project,
          noteable,
          caller,
          discussionId: input.discussion_id,
          body: requireText(input.body),
        });
        return oneNoteView({ users: deps.users, caller }, note);
      },
    }),
    ...noteRoutes({ path: `${base}/:discussion_id/notes`, shape: perDiscussion, found }),
    route({
      method: 'PUT',
      path: `${base}/:discussion_id/notes/:note_id`,
      access: 'user',
      scope: 'api',
      input: z.object({ ...perDiscussion, note_id: positive(), body: noteBody().optional(), resolved: params.boolean().optional() }),
      handle: async ({ caller, input, deps }) => {
        if (input.body === undefined && input.resolved === undefined) {
          throw new InputError('body, resolved are missing, exactly one parameter must be provided');
        }
        if (input.body !== undefined && input.resolved !== undefined) throw new InputError('body, resolved are mutually exclusive');
        const { project, noteable } = await found(deps, caller, input);
        const note =
          input.resolved === undefined
            ? await deps.notes.update({ project, noteable, caller, noteId: input.note_id, body: requireText(input.body ?? '') })
            : await deps.notes.resolveNote({ project, noteable, caller, noteId: input.note_id, resolved: input.resolved });
        return oneNoteView({ users: deps.users, caller }, note);
      },
    }),
  ];
  if (path !== 'merge_requests') return routes;
  return [
    ...routes,
    route({
      method: 'PUT',
      path: `${base}/:discussion_id`,
      access: 'user',
      scope: 'api',
      input: z.object({ ...perDiscussion, resolved: params.boolean() }),
      handle: async ({ caller, input, deps }) => {
        const { project, noteable } = await found(deps, caller, input);
        const notes = await deps.notes.resolveDiscussion({
          project,
          noteable,
          caller,
          discussionId: input.discussion_id,
          resolved: input.resolved,
        });
        return oneDiscussionView({ users: deps.users, caller }, notes);
      },
    }),
  ];
}

export const discussionsRoutes = [
  ...discussionRoutesOf('merge_requests'),
  ...discussionRoutesOf('issues'),
  ...discussionRoutesOf('commits'),
];
