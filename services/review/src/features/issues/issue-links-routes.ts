import { z } from 'zod';
import type { AuthenticatedCaller, Caller } from '@platform/auth';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import { baseUrlOf, params, routesOf } from '@platform/http';
import { ACCESS_LEVEL, hasProjectAccess, type ProjectAccess } from '@platform/identity-client';
import { planningProject } from '../core/issue-access.ts';
import type { IssueLink } from './issue-link.entity.ts';
import type { IssueLinksService } from './issue-links-service.ts';
import { viewsAcrossProjects, visibleIssue, type IssuesRouteDeps } from './issue-route-support.ts';

export interface IssueLinksRouteDeps extends IssuesRouteDeps {
  links: IssueLinksService;
}

const route = routesOf<IssueLinksRouteDeps>('review');

const iidParam = () => params.integer().pipe(z.number().int().positive());
const perIssue = { id: params.idOrPath(), issue_iid: iidParam() };
const perLink = { ...perIssue, issue_link_id: params.integer().pipe(z.number().int().positive()) };

/** Guests and above link and unlink issues of a project (GitLab's `admin_issue_link`). */
function mayLink(project: ProjectAccess): boolean {
  return hasProjectAccess(project, { minimumLevel: ACCESS_LEVEL.GUEST });
}

/** GitLab's `IssueLink`: both issues as the caller sees them; 404 when one of them is hidden from the caller. */
async function linkView(deps: IssueLinksRouteDeps, options: { caller: Caller; baseUrl: string }, link: IssueLink) {
  const issues = await deps.issues.byIds([link.sourceIssueId, link.targetIssueId]);
  const views = await viewsAcrossProjects(deps, options, issues);
  const source = views.get(link.sourceIssueId);
  const target = views.get(link.targetIssueId);
  if (!source || !target) throw new NotFoundError();
  return { source_issue: source, target_issue: target, link_type: link.linkType };
}

/** The link of `:issue_link_id` with the issue of `:issue_iid`, which the caller sees, at either end. */
async function linkOf(deps: IssueLinksRouteDeps, caller: AuthenticatedCaller, input: z.output<z.ZodObject<typeof perLink>>) {
  const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
  const issue = await visibleIssue(deps, project, caller, input.issue_iid);
  return deps.links.get(issue, input.issue_link_id);
}

export const issueLinksRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/issues/:issue_iid/links',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object(perIssue),
    handle: async ({ caller, input, deps, request }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const issue = await visibleIssue(deps, project, caller, input.issue_iid);
      const related = await deps.links.related(issue);
      const views = await viewsAcrossProjects(
        deps,
        { caller, baseUrl: baseUrlOf(request) },
        related.map((item) => item.issue),
      );
      return related.flatMap(({ issue: other, link, linkType }) => {
        const view = views.get(other.id);
        if (!view) return [];
        return [
          {
            ...view,
            issue_link_id: link.id,
            link_type: linkType,
            link_created_at: link.createdAt.toISOString(),
            link_updated_at: link.updatedAt.toISOString(),
          },
        ];
      });
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/issues/:issue_iid/links',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      ...perIssue,
      target_project_id: params.idOrPath(),
      target_issue_iid: iidParam(),
      link_type: z.enum(['relates_to', 'blocks', 'is_blocked_by']).default('relates_to'),
    }),
    handle: async ({ caller, input, deps, request }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const source = await visibleIssue(deps, project, caller, input.issue_iid);
      const targetProject = await planningProject({ access: deps.access, caller, idOrPath: input.target_project_id });
      const target = await visibleIssue(deps, targetProject, caller, input.target_issue_iid);
      if (!mayLink(project) || !mayLink(targetProject)) {
        throw new ForbiddenError("Couldn't link issue. You must have at least the Guest role in both projects.", { statusLine: false });
      }
      const link = await deps.links.link(source, target, input.link_type);
      return linkView(deps, { caller, baseUrl: baseUrlOf(request) }, link);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/issues/:issue_iid/links/:issue_link_id',
    access: 'user',
    scope: 'read_api',
    input: z.object(perLink),
    handle: async ({ caller, input, deps, request }) => {
      const link = await linkOf(deps, caller, input);
      return linkView(deps, { caller, baseUrl: baseUrlOf(request) }, link);
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/issues/:issue_iid/links/:issue_link_id',
    access: 'user',
    scope: 'api',
    input: z.object(perLink),
    handle: async ({ caller, input, deps, request }) => {
      const link = await linkOf(deps, caller, input);
      const view = await linkView(deps, { caller, baseUrl: baseUrlOf(request) }, link);
      for (const end of [view.source_issue, view.target_issue]) {
        const project = await planningProject({ access: deps.access, caller, idOrPath: end.project_id });
        if (!mayLink(project)) throw new NotFoundError('No Issue Link found');
      }
      await deps.links.unlink(link);
      return view;
    },
  }),
];
