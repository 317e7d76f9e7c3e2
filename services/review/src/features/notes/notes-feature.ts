import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { FactsSource } from '../merge-requests/merge-request-facts.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { notesEntities } from './note.entity.ts';
import type { IssueLookup } from './noteable-lookup.ts';
import { PgNoteStore } from './notes-store.ts';
import { NotesService } from './notes-service.ts';
import { notesRoutes } from './notes-routes.ts';
import { discussionsRoutes } from './discussions-routes.ts';
import { commitCommentsRoutes } from './commit-comments-routes.ts';

export { notesEntities };

export interface NotesFeature extends Feature {
  /** `user_notes_count` and `blocking_discussions_resolved` of merge request views. */
  facts: FactsSource;
}

/** Notes on the unit of work of `em`: built before the features whose changes write system notes. */
export function createNotes(deps: { em: EntityManager; access: IdentityAccess }): NotesService {
  return new NotesService({ ...deps, store: new PgNoteStore(deps.em) });
}

/**
 * Notes and discussions on merge requests, issues and commits (GitLab's notes, discussions and
 * commit comments), counted in each merge request's `user_notes_count`, its unresolved threads
 * blocking it.
 */
export function createNotesFeature(deps: {
  notes: NotesService;
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
  issues: IssueLookup;
  repositories: RepositoriesService;
  users: UserDirectory;
}): NotesFeature {
  const { notes } = deps;
  return {
    facts: async (mergeRequests) => {
      const ids = mergeRequests.map((mergeRequest) => mergeRequest.id);
      const [counts, unresolved] = await Promise.all([notes.userNotesCounts(ids), notes.unresolvedCounts(ids)]);
      return new Map(ids.map((id) => [id, { userNotesCount: counts.get(id) ?? 0, blockingDiscussionsResolved: !unresolved.has(id) }]));
    },
    routes: [createRouter([...notesRoutes, ...discussionsRoutes, ...commitCommentsRoutes], deps)],
  };
}
