import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { notesEntities } from './note.entity.ts';
import { PgNoteStore } from './notes-store.ts';
import { NotesService } from './notes-service.ts';
import { notesRoutes } from './notes-routes.ts';

export { notesEntities };

/** Comments on merge requests (GitLab's notes), counted in each merge request's `user_notes_count`. */
export function createNotesFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
  users: UserDirectory;
}): Feature {
  const notes = new NotesService({ store: new PgNoteStore(deps.em) });
  deps.mergeRequests.addFactsSource(async (mergeRequests) => {
    const counts = await notes.userNotesCounts(mergeRequests);
    return new Map([...counts].map(([id, userNotesCount]) => [id, { userNotesCount }]));
  });
  return { routes: [createRouter(notesRoutes, { ...deps, notes })] };
}
