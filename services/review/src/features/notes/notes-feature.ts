import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { FactsSource } from '../merge-requests/merge-request-facts.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { notesEntities } from './note.entity.ts';
import { PgNoteStore } from './notes-store.ts';
import { NotesService } from './notes-service.ts';
import { notesRoutes } from './notes-routes.ts';

export { notesEntities };

export interface NotesFeature extends Feature {
  /** `user_notes_count` of merge request views. */
  facts: FactsSource;
}

/** Comments on merge requests (GitLab's notes), counted in each merge request's `user_notes_count`. */
export function createNotesFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
  users: UserDirectory;
}): NotesFeature {
  const notes = new NotesService({ em: deps.em, store: new PgNoteStore(deps.em) });
  return {
    facts: async (mergeRequests) => {
      const counts = await notes.userNotesCounts(mergeRequests);
      return new Map([...counts].map(([id, userNotesCount]) => [id, { userNotesCount }]));
    },
    routes: [createRouter(notesRoutes, { ...deps, notes })],
  };
}
