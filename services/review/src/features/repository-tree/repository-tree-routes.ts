import { z } from 'zod';
import { InputError, NotFoundError } from '@platform/errors';
import { baseUrlOf, pageParams, pageShape, params, reply, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { TreeEntry } from '../repositories/git-repository.ts';
import { accessRepository } from '../repositories/project-repositories.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { gitRevision, repositoryPath } from '../repositories/repository-params.ts';

export interface RepositoryTreeRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
}

const route = routesOf<RepositoryTreeRouteDeps>('review');

const treeObjectView = (entry: TreeEntry) => ({ id: entry.id, name: entry.name, type: entry.type, path: entry.path, mode: entry.mode });

/** A directory's entries as GitLab lists them: trees first, each kind in git's (name) order. */
function treesFirst(entries: TreeEntry[]): TreeEntry[] {
  return [...entries.filter((entry) => entry.type === 'tree'), ...entries.filter((entry) => entry.type !== 'tree')];
}

export const repositoryTreeRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/tree',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({
      id: params.idOrPath(),
      ref: gitRevision().optional(),
      path: repositoryPath({ leadingSlash: true }).optional(),
      recursive: params.boolean().default(false),
      ...pageShape,
      pagination: z.enum(['legacy', 'keyset', 'none']).default('legacy'),
      page_token: z.string().max(1024).optional(),
    }),
    handle: async ({ caller, input, deps, request, page }) => {
      if (input.pagination === 'none' && !input.recursive) throw new InputError('pagination cannot be "none" unless "recursive" is true');
      const { repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const commitId = await repository.git.resolveCommit(input.ref ?? 'HEAD');
      // An empty repository has no tree yet; GitLab lists nothing for its default branch.
      if (!commitId) {
        if (input.ref === undefined) return [];
        throw new NotFoundError('Tree');
      }
      const under = input.path?.replace(/\/+$/, '') ?? '';
      const tree = await repository.git.treeAt(commitId, under);
      if (!tree) throw new NotFoundError('Tree');
      const entries = repository.git.treeEntries({ tree, under, recursive: input.recursive });
      const window = pageParams(input);

      if (input.pagination === 'none') {
        const all: TreeEntry[] = [];
        for await (const entry of entries) all.push(entry);
        return all.map(treeObjectView);
      }
      if (input.pagination === 'keyset') {
        // A page starts after the entry whose id is the token (the first such one), as GitLab's tree pages do.
        const items: TreeEntry[] = [];
        let started = input.page_token === undefined;
        let hasMore = false;
        for await (const entry of entries) {
          if (!started) {
            started = entry.id === input.page_token;
            continue;
          }
          if (items.length === window.perPage) {
            hasMore = true;
            break;
          }
          items.push(entry);
        }
        const last = items.at(-1);
        const headers: Record<string, string> = {};
        if (hasMore && last) {
          const next = new URL(request.originalUrl, baseUrlOf(request));
          next.searchParams.set('page_token', last.id);
          next.searchParams.set('per_page', String(window.perPage));
          headers.Link = `<${next.toString()}>; rel="next"`;
        }
        return reply({ headers, body: items.map(treeObjectView) });
      }
      // Offset pages count every entry (kept in memory only for one directory level, to put its trees first).
      if (!input.recursive) {
        const all: TreeEntry[] = [];
        for await (const entry of entries) all.push(entry);
        const ordered = treesFirst(all);
        return page(window, {
          items: ordered.slice(window.offset, window.offset + window.perPage).map(treeObjectView),
          total: ordered.length,
        });
      }
      const items: TreeEntry[] = [];
      let total = 0;
      for await (const entry of entries) {
        if (total >= window.offset && items.length < window.perPage) items.push(entry);
        total += 1;
      }
      return page(window, { items: items.map(treeObjectView), total });
    },
  }),
];
