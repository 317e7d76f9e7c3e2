import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { IssuesService } from '../issues/issues-service.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { FactsOf } from '../merge-requests/merge-request-facts.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { todosEntities } from './todo.entity.ts';
import { PgTodoStore } from './todos-store.ts';
import { TodosService } from './todos-service.ts';
import { todosRoutes } from './todos-routes.ts';
import { userCountsRoutes } from './user-counts-routes.ts';

export { todosEntities };

/** To-dos about merge requests (`POST .../todo`, `GET /todos`, marking done) and the caller's counters (`GET /user_counts`). */
export function createTodosFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
  facts: FactsOf;
  users: UserDirectory;
  issues: IssuesService;
}): Feature {
  const todos = new TodosService({ store: new PgTodoStore(deps.em) });
  const { em: _em, issues, ...routeDeps } = deps;
  return {
    routes: [
      createRouter(todosRoutes, { ...routeDeps, todos }),
      createRouter(userCountsRoutes, { mergeRequests: deps.mergeRequests, todos, issues }),
    ],
  };
}
