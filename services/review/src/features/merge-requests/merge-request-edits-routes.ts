import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { ForbiddenError, InputError, UnprocessableError } from '@platform/errors';
import { params, routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess } from '@platform/identity-client';
import { codeReaders } from '../repositories/repository-access.ts';
import { inSameForkNetwork } from './fork-network.ts';
import type { MergeRequestScope } from './merge-request-refs.ts';
import { detail, perMergeRequest, writableScopeOf, type MergeRequestsRouteDeps } from './merge-request-route-support.ts';
import type { CreateMergeRequestService } from './create-merge-request-service.ts';
import type { UpdateMergeRequestService } from './update-merge-request-service.ts';

export interface MergeRequestEditsRouteDeps extends MergeRequestsRouteDeps {
  creation: CreateMergeRequestService;
  updates: UpdateMergeRequestService;
}

const route = routesOf<MergeRequestEditsRouteDeps>('review');

/**
 * Where a new merge request goes: the source project itself, or (`target_project_id`) another
 * project of its fork network the caller may read, as GitLab's `create_merge_request_in`: 404 for
 * a project the caller cannot see, 403 without read access to its code, 422 outside the network.
 */
async function targetScopeOf(
  deps: MergeRequestEditsRouteDeps,
  caller: Caller,
  source: MergeRequestScope,
  targetProjectId: number | undefined,
) {
  if (targetProjectId === undefined || targetProjectId === source.project.id) return source;
  const project = await requireProjectAccess({ access: deps.access, caller, idOrPath: targetProjectId, ...codeReaders() });
  // Nothing is opened in an archived project, from a fork either.
  if (project.archived) throw new ForbiddenError();
  if (!(await inSameForkNetwork(deps.access, source.project, project))) {
    throw new UnprocessableError(['Source project is not a fork of the target project']);
  }
  return { project, repository: await deps.repositories.ensure(project.id, { forkedFromProjectId: project.forkedFromProjectId }) };
}

const userIds = () => params.integerList(100);
/** 0 or null: no milestone, as GitLab takes it. */
const milestoneIdParam = () => z.union([params.integer(), z.null(), z.literal('').transform(() => null)]);
/** GitLab's deprecated per-merge-request approvals count. */
const approvalsBeforeMerge = () => params.integer().pipe(z.number().int().min(0).max(100));
const labelList = () => params.stringList(100);

/** Merge requests opened, and changed (closed and reopened among the changes). */
export const mergeRequestEditsRoutes = [
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/merge_requests',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      id: params.idOrPath(),
      source_branch: z.string().min(1).max(1024),
      target_branch: z.string().min(1).max(1024),
      title: z.string().min(1).max(255),
      description: z.string().max(1_048_576).optional(),
      assignee_id: params.integer().optional(),
      assignee_ids: userIds().optional(),
      reviewer_ids: userIds().optional(),
      labels: labelList().optional(),
      milestone_id: milestoneIdParam().optional(),
      remove_source_branch: params.boolean().default(false),
      squash: params.boolean().default(false),
      allow_collaboration: params.boolean().default(false),
      allow_maintainer_to_push: params.boolean().optional(),
      target_project_id: params.integer().optional(),
      approvals_before_merge: approvalsBeforeMerge().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      // GitLab's `create_merge_request_from`: developers of the source project (a fork's, for a fork).
      const source = await writableScopeOf(deps, caller, input.id, ACCESS_LEVEL.DEVELOPER);
      const scope = await targetScopeOf(deps, caller, source, input.target_project_id);
      // The merge request's milestone and labels are the target project's.
      const milestoneId = (await deps.milestones.given(scope.project.id, input.milestone_id)) ?? null;
      // Titles the project lacks become its labels, as GitLab creates them.
      const labels = await deps.labels.ensure(scope.project.id, caller, input.labels ?? []);
      const created = await deps.creation.create(scope, caller, {
        targetNamespaceIds: await deps.users.namespaceIdsOf(scope.project.id),
        sourceRepository: source.repository,
        sourceBranch: input.source_branch,
        targetBranch: input.target_branch,
        title: input.title,
        description: input.description ?? '',
        assigneeIds: input.assignee_ids ?? (input.assignee_id === undefined || input.assignee_id === 0 ? [] : [input.assignee_id]),
        reviewerIds: input.reviewer_ids ?? [],
        labels,
        milestoneId,
        removeSourceBranch: input.remove_source_branch,
        squash: input.squash,
        allowCollaboration: input.allow_collaboration || (input.allow_maintainer_to_push ?? false),
        approvalsBeforeMerge: input.approvals_before_merge,
      });
      // Shown as from the project the request was made to: a fork's reference to its upstream is not relative.
      return detail(deps, caller, scope, created, { fromOwnProject: scope === source });
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid',
    access: 'user',
    scope: 'api',
    input: z.object({
      ...perMergeRequest,
      title: z.string().min(1).max(255).optional(),
      description: z.string().max(1_048_576).optional(),
      target_branch: z.string().min(1).max(1024).optional(),
      state_event: z.enum(['close', 'reopen']).optional(),
      assignee_id: params.integer().optional(),
      assignee_ids: userIds().optional(),
      reviewer_ids: userIds().optional(),
      labels: labelList().optional(),
      add_labels: labelList().optional(),
      remove_labels: labelList().optional(),
      remove_source_branch: params.boolean().optional(),
      squash: params.boolean().optional(),
      discussion_locked: params.boolean().optional(),
      allow_collaboration: params.boolean().optional(),
      milestone_id: milestoneIdParam().optional(),
      approvals_before_merge: approvalsBeforeMerge().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const scope = await writableScopeOf(deps, caller, input.id);
      // Developers edit merge requests; below that, only their authors do.
      if (!scope.project.isAdmin && scope.project.accessLevel < ACCESS_LEVEL.DEVELOPER) {
        const existing = await deps.mergeRequests.find(scope.project.id, input.merge_request_iid);
        if (existing?.authorId !== caller.userId) throw new ForbiddenError();
      }
      const { id: _id, merge_request_iid: _iid, ...given } = input;
      if (Object.values(given).every((value) => value === undefined))
        throw new InputError(
          'title, description, target_branch, state_event, assignee_id, assignee_ids, reviewer_ids, labels, add_labels, remove_labels, milestone_id, remove_source_branch, squash, discussion_locked, allow_collaboration are missing, at least one parameter must be provided',
        );
      // An unknown merge request is 404 before any label is created for it.
      await deps.mergeRequests.get(scope.project.id, input.merge_request_iid);
      const milestoneId = await deps.milestones.given(scope.project.id, input.milestone_id);
      const ensured = async (titles: string[] | undefined) =>
        titles === undefined ? undefined : deps.labels.ensure(scope.project.id, caller, titles);
      const assigneeIds =
        input.assignee_ids ?? (input.assignee_id === undefined ? undefined : input.assignee_id === 0 ? [] : [input.assignee_id]);
      const updated = await deps.updates.update(scope, caller, input.merge_request_iid, {
        title: input.title,
        description: input.description,
        targetBranch: input.target_branch,
        stateEvent: input.state_event,
        assigneeIds,
        reviewerIds: input.reviewer_ids,
        labels: await ensured(input.labels),
        addLabels: await ensured(input.add_labels),
        removeLabels: input.remove_labels,
        milestoneId,
        removeSourceBranch: input.remove_source_branch,
        squash: input.squash,
        discussionLocked: input.discussion_locked,
        allowCollaboration: input.allow_collaboration,
        approvalsBeforeMerge: input.approvals_before_merge,
      });
      return detail(deps, caller, scope, updated);
    },
  }),
];
