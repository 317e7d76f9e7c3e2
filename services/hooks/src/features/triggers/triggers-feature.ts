/**
 * Turns the domain events into webhook deliveries: for each event, the hooks that asked for it
 * (the project's, its groups', the system hooks) each get a pending delivery and its job, in the
 * transaction that marks the event processed; nothing is sent here. Payloads are built once, at
 * the event, from the event and what identity says of the project and the user.
 */
import type { AuthenticatedCaller, Caller } from '@platform/auth';
import type { EntityManager } from '@platform/db';
import type { EventActor, EventEnvelope } from '@platform/events';
import { onEvent } from '@platform/events';
import { DomainError, UnprocessableError } from '@platform/errors';
import { deliveryEvents } from '@platform/delivery-client';
import { identityEvents } from '@platform/identity-client';
import { MembershipSourceType, type MemberSnapshot } from '@platform/proto/identity/v1/namespace-events';
import type { MergeRequestChanged } from '@platform/proto/review/v1/events';
import { reviewEvents, type CommitDetails } from '@platform/review-client';
import type { Feature } from '@platform/service';
import { isExecutable } from '../core/auto-disabling.ts';
import { branchMatches } from '../core/branch-filter.ts';
import type { PendingDelivery, PgHookStore } from '../core/hook-store.ts';
import type { TriggerFlag, WebHook } from '../core/web-hook.entity.ts';
import type { TestSamples } from '../web-hooks/web-hooks-routes.ts';
import { deploymentPayload, featureFlagPayload, pipelinePayload, type DeploymentFacts, type PipelineFacts } from './delivery-payloads.ts';
import { DeploymentCopy } from './deployment-copy.entity.ts';
import {
  BLANK_SHA,
  commitTitle,
  groupMemberHookPayload,
  groupMemberSystemPayload,
  groupSystemPayload,
  issuePayload,
  mergeRequestPayload,
  projectMemberSystemPayload,
  projectSystemPayload,
  pushPayload,
  subgroupPayload,
  userSystemPayload,
  notePayload,
  type IssueAction,
  type IssueFacts,
  type LabelFacts,
  type MemberChange,
  type MergeRequestAction,
  type MergeRequestFacts,
  type NoteFacts,
  type Noteable,
  type CommitFacts,
} from './hook-payloads.ts';
import { PgCommitCopyStore } from './commit-copies-store.ts';
import { PgIssuableCopyStore } from './issuable-copies-store.ts';
import { PgLabelCopyStore } from './label-copies-store.ts';
import { PgLatestCopyStore } from './latest-copies-store.ts';
import { NoteCopy } from './note-copy.entity.ts';
import { PipelineCopy } from './pipeline-copy.entity.ts';
import { PgProtectedBranchCopyStore } from './protected-branch-copies-store.ts';
import { PgProtectedTagCopyStore } from './protected-tag-copies-store.ts';
import { PgPushedProjectStore } from './pushed-projects-store.ts';
import type { HookGroup, HookProject, ProjectDirectory } from './project-directory.ts';

const APPROVAL_ACTIONS = new Set<MergeRequestAction>(['approved', 'unapproved', 'approval', 'unapproval']);

export interface TriggersFeature extends Feature {
  samples: TestSamples;
}

/** Which hooks of a project event get it, under which GitLab hook name. */
interface ProjectTrigger {
  flag: TriggerFlag;
  hookName: string;
  /** The pushed branch, for branch filters. */
  branch?: string;
  /** Whether system hooks asking for the flag get it too (pushes, tag pushes, merge requests). */
  system: boolean;
}

function wants(hook: WebHook, trigger: ProjectTrigger): boolean {
  if (hook.type === 'SystemHook' && !trigger.system) return false;
  if (!hook.triggers[trigger.flag]) return false;
  if (
    trigger.branch !== undefined &&
    !branchMatches({ strategy: hook.branchFilterStrategy, filter: hook.pushEventsBranchFilter, branch: trigger.branch })
  ) {
    return false;
  }
  return isExecutable(hook.type, hook, new Date());
}

/** Commits as review knows them (its GetCommit), read as a user. */
export interface CommitLookup {
  /** Null when the repository has no commit with the full sha `sha`. */
  commit(options: { caller: AuthenticatedCaller; projectId: number; sha: string }): Promise<CommitDetails | null>;
  close(): void;
}

/** What a pipeline's copy keeps: its facts and who ran it. */
interface PipelineCopyFacts extends PipelineFacts {
  userId: number;
}

/** What a comment's copy keeps: the note, and the commit it is on (null on a merge request or issue). */
interface NoteCopyFacts extends NoteFacts {
  commitId: string | null;
}

/** What a deployment's copy keeps: its facts and who deployed it. */
interface DeploymentCopyFacts extends DeploymentFacts {
  userId: number;
}

/** The user an event's actor was, as review's calls take it: reading what they read. */
function callerOf(actor: EventActor): AuthenticatedCaller {
  return { kind: 'user', userId: actor.id, username: actor.username, name: actor.name, isAdmin: false, scopes: ['read_api'] };
}

/** What a hook test sends for each trigger GitLab can test with data kept here, and what it says without any. */
const TEST_SAMPLES = {
  push_events: { hookName: 'push_hooks' },
  tag_push_events: { hookName: 'tag_push_hooks' },
  note_events: { hookName: 'note_hooks', missing: 'Ensure the project has notes.' },
  pipeline_events: { hookName: 'pipeline_hooks', missing: 'Ensure the project has CI pipelines.' },
  deployment_events: { hookName: 'deployment_hooks', missing: 'Ensure the project has deployments.' },
  merge_requests_events: { hookName: 'merge_request_hooks', missing: 'Ensure the project has merge requests.' },
  issues_events: { hookName: 'issue_hooks', missing: 'Ensure the project has issues.' },
  confidential_issues_events: { hookName: 'confidential_issue_hooks', missing: 'Ensure the project has issues.' },
} as const;

export function createTriggersFeature(deps: {
  em: EntityManager;
  store: PgHookStore;
  directory: ProjectDirectory;
  /** Review's commits: those no push described. */
  commits: CommitLookup;
}): TriggersFeature {
  const { store, directory } = deps;
  const copies = new PgIssuableCopyStore(deps.em);
  const labels = new PgLabelCopyStore(deps.em);
  const protectedBranches = new PgProtectedBranchCopyStore(deps.em);
  const commits = new PgCommitCopyStore(deps.em);
  const protectedTags = new PgProtectedTagCopyStore(deps.em);
  const pipelines = new PgLatestCopyStore<PipelineCopyFacts>(deps.em, PipelineCopy);
  const deployments = new PgLatestCopyStore<DeploymentCopyFacts>(deps.em, DeploymentCopy);
  const notes = new PgLatestCopyStore<NoteCopyFacts>(deps.em, NoteCopy);
  const pushedProjects = new PgPushedProjectStore(deps.em);

  /**
   * The commit as a push described it, else as review answers `caller` (who commented on it, ran
   * its pipeline or tests a hook), kept for the next time; undefined when unknown or not theirs to read.
   */
  async function commitOf(projectId: number, sha: string, caller: AuthenticatedCaller | undefined): Promise<CommitFacts | undefined> {
    const copy = await commits.find(projectId, sha);
    if (copy || !caller) return copy;
    let found;
    try {
      found = await deps.commits.commit({ caller, projectId, sha });
    } catch (error) {
      if (error instanceof DomainError) return undefined;
      throw error;
    }
    if (!found) return undefined;
    const { id, committedDate: timestamp, ...described } = found;
    await commits.save([{ projectId, sha: id, timestamp, ...described }]);
    return { id, timestamp, ...described };
  }

  /** The deployment with its commit's title, as `commitOf` finds the commit. */
  async function withCommitTitle<Deployment extends DeploymentFacts>(
    deployment: Deployment,
    projectId: number,
    caller: AuthenticatedCaller | undefined,
  ): Promise<Deployment> {
    const commit = await commitOf(projectId, deployment.sha, caller);
    return { ...deployment, commitTitle: commit ? commitTitle(commit.message) : null };
  }

  /** The group's hooks and its ancestors' that asked for one of the group's own events. */
  async function deliverGroupEvent(options: {
    group: HookGroup;
    envelope: EventEnvelope;
    flag: 'member_events' | 'project_events' | 'subgroup_events';
    hookName: string;
    data: Record<string, unknown>;
  }): Promise<void> {
    const now = new Date();
    const hooks = (await store.groupHooks(options.group.ancestorIds)).filter(
      (hook) => hook.triggers[options.flag] && isExecutable(hook.type, hook, now),
    );
    await store.recordPending(
      hooks.map((hook) => ({ hook, trigger: options.hookName, eventUuid: options.envelope.id, data: options.data })),
    );
  }

  /** A project created in, or deleted from, a group: a Project Hook to the group's hooks. */
  async function deliverGroupProjectEvent(options: {
    envelope: EventEnvelope;
    event: 'project_create' | 'project_destroy';
    project: Parameters<typeof projectSystemPayload>[0]['project'] & { namespaceId: number };
  }): Promise<void> {
    const group = await directory.group(options.project.namespaceId);
    if (!group) return;
    const { envelope, event, project } = options;
    await deliverGroupEvent({
      group,
      envelope,
      flag: 'project_events',
      hookName: 'project_hooks',
      data: projectSystemPayload({ event, project, owner: envelope.actor, occurredAt: envelope.occurredAt }),
    });
  }

  /** A subgroup created in, or removed from, its parent: a Subgroup Hook to the parent's hooks. */
  async function deliverSubgroupEvent(options: {
    envelope: EventEnvelope;
    event: 'subgroup_create' | 'subgroup_destroy';
    subgroup: { id: number; name: string; path: string; fullPath: string; parentId: number };
  }): Promise<void> {
    const { envelope, event, subgroup } = options;
    const parent = subgroup.parentId ? await directory.group(subgroup.parentId) : undefined;
    if (!parent) return;
    await deliverGroupEvent({
      group: parent,
      envelope,
      flag: 'subgroup_events',
      hookName: 'subgroup_hooks',
      data: subgroupPayload({ event, subgroup, parent, occurredAt: envelope.occurredAt }),
    });
  }

  /** The labels with these titles that the project's merge requests and issues carry. */
  async function labelsOf(project: HookProject, titles: string[]): Promise<LabelFacts[]> {
    const found = await labels.byTitles({ projectId: project.id, namespaceIds: project.namespaceIds, titles });
    return found.map((label) => ({
      ...label,
      projectId: label.projectId ?? null,
      groupId: label.groupId ?? null,
      description: label.description ?? null,
      createdAt: label.createdAt.toISOString(),
      updatedAt: label.updatedAt.toISOString(),
    }));
  }

  async function deliverProjectEvent(options: {
    projectId: number;
    envelope: EventEnvelope;
    trigger: ProjectTrigger;
    build: (project: HookProject) => Promise<Record<string, unknown>>;
    /** The project, when the caller asked identity already. */
    project?: HookProject;
  }): Promise<void> {
    const project = options.project ?? (await directory.project(options.projectId));
    if (!project) return;
    const hooks = (await store.hooksForProject(project.id, project.namespaceIds)).filter((hook) => wants(hook, options.trigger));
    if (hooks.length === 0) return;
    const data = await options.build(project);
    const deliveries: PendingDelivery[] = hooks.map((hook) => ({
      hook,
      trigger: hook.type === 'SystemHook' ? 'system_hooks' : options.trigger.hookName,
      eventUuid: options.envelope.id,
      data,
    }));
    await store.recordPending(deliveries);
  }

  async function deliverSystemEvent(envelope: EventEnvelope, data: Record<string, unknown>): Promise<void> {
    const hooks = await store.systemHooks();
    await store.recordPending(hooks.map((hook) => ({ hook, trigger: 'system_hooks', eventUuid: envelope.id, data })));
  }

  const actorOf = async (envelope: EventEnvelope) =>
    envelope.actor ? (await directory.users([envelope.actor.id])).get(envelope.actor.id) : undefined;

  /** A membership's system hook: a project's names and visibility as identity says them now. */
  async function deliverMemberEvent(envelope: EventEnvelope, member: MemberSnapshot | undefined, change: MemberChange): Promise<void> {
    if (!member) return;
    const facts = {
      userId: member.userId,
      username: member.username,
      userName: member.userName,
      userEmail: member.userEmail,
      accessLevel: member.accessLevel,
      expiresAt: member.expiresAt || null,
    };
    if (member.sourceType === MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_GROUP) {
      const group = { id: member.sourceId, name: member.sourceName, path: member.sourceFullPath.split('/').at(-1) ?? '' };
      const occurredAt = envelope.occurredAt;
      await deliverSystemEvent(envelope, groupMemberSystemPayload({ change, member: facts, group, occurredAt }));
      const hooked = await directory.group(member.sourceId);
      if (hooked) {
        const data = groupMemberHookPayload({ change, member: facts, group, occurredAt });
        await deliverGroupEvent({ group: hooked, envelope, flag: 'member_events', hookName: 'member_hooks', data });
      }
      return;
    }
    const project = await directory.project(member.sourceId);
    if (!project) return;
    await deliverSystemEvent(envelope, projectMemberSystemPayload({ change, member: facts, project, occurredAt: envelope.occurredAt }));
  }

  // A deployment's hooks run when it starts, succeeds, fails or is canceled; not while it is only created.
  const deploymentHandler = (definition: typeof deliveryEvents.deploymentCreated) =>
    onEvent(definition, async (data, envelope) => {
      const deployment: DeploymentCopyFacts = {
        id: data.deploymentId,
        status: data.status,
        statusChangedAt: envelope.occurredAt,
        environment: {
          name: data.environmentName,
          tier: data.environmentTier,
          slug: data.environmentSlug,
          externalUrl: data.environmentExternalUrl || null,
        },
        ref: data.ref,
        sha: data.sha,
        // Read when a payload is built: only then is the commit looked for.
        commitTitle: null,
        userId: data.userId,
      };
      await deployments.save({ id: deployment.id, projectId: data.projectId, facts: deployment });
      if (data.status === 'created') return;
      await deliverProjectEvent({
        projectId: data.projectId,
        envelope,
        trigger: { flag: 'deployment_events', hookName: 'deployment_hooks', system: false },
        build: async (project) =>
          deploymentPayload({
            deployment: await withCommitTitle(deployment, data.projectId, envelope.actor ? callerOf(envelope.actor) : undefined),
            project,
            user: data.userId ? (await directory.users([data.userId])).get(data.userId) : undefined,
          }),
      });
    });

  const mergeRequestFacts = (
    data: MergeRequestChanged,
    envelope: EventEnvelope,
    titled: LabelFacts[],
    lastCommit: CommitFacts | undefined,
  ): MergeRequestFacts => ({
    id: data.mergeRequestId,
    iid: data.iid,
    title: data.title,
    state: data.state,
    sourceBranch: data.sourceBranch,
    targetBranch: data.targetBranch,
    authorId: data.authorId,
    mergeCommitSha: data.mergeCommitSha || null,
    description: data.description,
    sourceProjectId: data.sourceProjectId || data.projectId,
    // Events recorded before they carried the merge request's timestamps: when the change was.
    createdAt: data.createdAt || envelope.occurredAt,
    updatedAt: data.updatedAt || envelope.occurredAt,
    assigneeIds: data.assigneeIds,
    reviewerIds: data.reviewerIds,
    milestoneId: data.milestoneId || null,
    mergeStatus: data.mergeStatus || 'unchecked',
    timeEstimate: data.timeEstimate,
    totalTimeSpent: data.totalTimeSpent,
    labels: titled,
    lastCommit: lastCommit ?? null,
  });

  /** An external pipeline's hooks, when it is created and whenever its status changes. */
  const pipelineHandler = (definition: typeof deliveryEvents.pipelineCreated) =>
    onEvent(definition, async (data, envelope) => {
      const protectedRef = await isProtected(data.projectId, `${data.tag ? 'refs/tags/' : 'refs/heads/'}${data.ref}`);
      const pipeline: PipelineCopyFacts = {
        id: data.pipelineId,
        iid: data.iid,
        ref: data.ref,
        tag: data.tag,
        sha: data.sha,
        beforeSha: data.beforeSha || BLANK_SHA,
        source: data.source || 'external',
        status: data.status,
        protectedRef,
        createdAt: data.createdAt || envelope.occurredAt,
        finishedAt: data.finishedAt || null,
        duration: data.duration ?? null,
        userId: data.userId,
      };
      await pipelines.save({ id: pipeline.id, projectId: data.projectId, facts: pipeline });
      if (data.previousStatus === data.status) return;
      await deliverProjectEvent({
        projectId: data.projectId,
        envelope,
        trigger: { flag: 'pipeline_events', hookName: 'pipeline_hooks', system: false },
        build: async (project) =>
          pipelinePayload({
            pipeline,
            commit: await commitOf(data.projectId, data.sha, envelope.actor ? callerOf(envelope.actor) : undefined),
            project,
            user: data.userId ? (await directory.users([data.userId])).get(data.userId) : undefined,
          }),
      });
    });

  /** A merge request's hooks: `changes` from the state its previous event described, which this one replaces. */
  async function deliverMergeRequest(options: {
    envelope: EventEnvelope;
    projectId: number;
    mergeRequest: MergeRequestFacts;
    action: MergeRequestAction;
    userId: number | undefined;
    project?: HookProject;
  }): Promise<void> {
    const { mergeRequest, action } = options;
    const previous = await copies.find<MergeRequestFacts>('MergeRequest', mergeRequest.id);
    await copies.save({ type: 'MergeRequest', id: mergeRequest.id, projectId: options.projectId, facts: mergeRequest });
    await deliverProjectEvent({
      project: options.project,
      projectId: options.projectId,
      envelope: options.envelope,
      trigger: { flag: 'merge_requests_events', hookName: 'merge_request_hooks', system: true },
      build: async (project) => {
        const ids = [
          ...mergeRequest.assigneeIds,
          ...mergeRequest.reviewerIds,
          ...(previous ? [...previous.assigneeIds, ...previous.reviewerIds] : []),
        ];
        const users = await directory.users([...ids, ...(options.userId ? [options.userId] : [])]);
        const user = options.userId ? users.get(options.userId) : undefined;
        // A new merge request, or an approval, changes none of its attributes.
        const since = action === 'open' || APPROVAL_ACTIONS.has(action) ? undefined : previous;
        return mergeRequestPayload({ mergeRequest, action, project, user, users, previous: since });
      },
    });
  }

  const mergeRequestHandler = (action: MergeRequestAction) => (definition: typeof reviewEvents.mergeRequestCreated) =>
    onEvent(definition, async (data, envelope) => {
      const project = await directory.project(data.projectId);
      if (!project) return;
      // The head lives in the source project's repository, whose pushes described it.
      const lastCommit = data.lastCommitId ? await commits.find(data.sourceProjectId || data.projectId, data.lastCommitId) : undefined;
      const mergeRequest = mergeRequestFacts(data, envelope, await labelsOf(project, data.labels), lastCommit);
      await deliverMergeRequest({ envelope, projectId: data.projectId, mergeRequest, action, userId: envelope.actor?.id, project });
    });

  /**
   * An approval given or taken back: `approved` once no approval is missing, `approval` before;
   * `unapproved` when the merge request was approved before the approval was taken back (at most
   * the taken one is missing now), `unapproval` otherwise.
   */
  const approvalHandler = (given: boolean) => (definition: typeof reviewEvents.mergeRequestApproved) =>
    onEvent(definition, async (data, envelope) => {
      const mergeRequest = await copies.find<MergeRequestFacts>('MergeRequest', data.mergeRequestId);
      if (!mergeRequest) return;
      const action: MergeRequestAction = given
        ? data.approvalsLeft === 0
          ? 'approved'
          : 'approval'
        : data.approvalsLeft <= 1
          ? 'unapproved'
          : 'unapproval';
      await deliverMergeRequest({ envelope, projectId: data.projectId, mergeRequest, action, userId: data.userId || envelope.actor?.id });
    });

  // A confidential issue goes only to hooks asking for confidential issues, under their own hook name.
  const issueHandler = (action: IssueAction) => (definition: typeof reviewEvents.issueCreated) =>
    onEvent(definition, async (data, envelope) => {
      const project = await directory.project(data.projectId);
      if (!project) return;
      const issue: IssueFacts = {
        id: data.issueId,
        iid: data.iid,
        title: data.title,
        description: data.description,
        state: data.state,
        confidential: data.confidential,
        authorId: data.authorId,
        assigneeIds: data.assigneeIds,
        milestoneId: data.milestoneId || null,
        dueDate: data.dueDate || null,
        // Events recorded before they carried the issue's timestamps: when the change was.
        createdAt: data.createdAt || envelope.occurredAt,
        updatedAt: data.updatedAt || envelope.occurredAt,
        closedAt: data.closedAt || null,
        labels: await labelsOf(project, data.labels),
      };
      const previous = await copies.find<IssueFacts>('Issue', issue.id);
      await copies.save({ type: 'Issue', id: issue.id, projectId: data.projectId, facts: issue });
      await deliverProjectEvent({
        project,
        projectId: data.projectId,
        envelope,
        trigger: data.confidential
          ? { flag: 'confidential_issues_events', hookName: 'confidential_issue_hooks', system: false }
          : { flag: 'issues_events', hookName: 'issue_hooks', system: false },
        build: async (project) => {
          const ids = [...issue.assigneeIds, ...(previous?.assigneeIds ?? []), ...(envelope.actor ? [envelope.actor.id] : [])];
          const users = await directory.users(ids);
          const user = envelope.actor ? users.get(envelope.actor.id) : undefined;
          return issuePayload({ issue, action, project, user, users, previous: action === 'open' ? undefined : previous });
        },
      });
    });

  /**
   * A comment made or edited (deletions and system notes send nothing, as GitLab): on a
   * confidential issue, only to hooks asking for confidential notes. What it is on is shown as
   * that merge request's or issue's last event described it, and a commit as its push did or else
   * as review says it to the comment's author; a note on a merge request or issue never described
   * is not sent.
   */
  const noteHandler = (action: 'create' | 'update') => (definition: typeof reviewEvents.noteCreated) =>
    onEvent(definition, async (data, envelope) => {
      if (data.system) return;
      const note: NoteCopyFacts = {
        id: data.noteId,
        body: data.body,
        noteableType: data.noteableType,
        noteableId: data.noteableId,
        noteableIid: data.noteableIid,
        authorId: data.authorId,
        createdAt: data.createdAt || envelope.occurredAt,
        updatedAt: action === 'create' ? data.createdAt || envelope.occurredAt : envelope.occurredAt,
        commitId: data.commitId || null,
      };
      await notes.save({ id: note.id, projectId: data.projectId, facts: note });
      const noteable = await noteableOf(data.projectId, note, envelope.actor ? callerOf(envelope.actor) : undefined);
      if (!noteable) return;
      const confidential = 'issue' in noteable && noteable.issue.confidential;
      await deliverProjectEvent({
        projectId: data.projectId,
        envelope,
        trigger: confidential
          ? { flag: 'confidential_note_events', hookName: 'confidential_note_hooks', system: false }
          : { flag: 'note_events', hookName: 'note_hooks', system: false },
        build: async (project) => notePayload({ note, action, noteable, project, user: await actorOf(envelope) }),
      });
    });

  /** What a note is on, as the merge request's or issue's last event, or the commit's push or review, described it. */
  async function noteableOf(
    projectId: number,
    note: NoteCopyFacts,
    caller: AuthenticatedCaller | undefined,
  ): Promise<Noteable | undefined> {
    if (note.noteableType === 'MergeRequest') {
      const mergeRequest = await copies.find<MergeRequestFacts>('MergeRequest', note.noteableId);
      return mergeRequest && { mergeRequest };
    }
    if (note.noteableType === 'Issue') {
      const issue = await copies.find<IssueFacts>('Issue', note.noteableId);
      return issue && { issue };
    }
    if (note.noteableType !== 'Commit' || !note.commitId) return undefined;
    const commit = await commitOf(projectId, note.commitId, caller);
    return commit && { commit };
  }

  /** A label as it is now, for the payloads of what carries it from now on. */
  const labelHandler = (definition: typeof reviewEvents.labelCreated) =>
    onEvent(definition, (data, envelope) =>
      labels.save({
        type: data.groupId ? 'GroupLabel' : 'ProjectLabel',
        id: data.labelId,
        projectId: data.groupId ? null : data.projectId,
        groupId: data.groupId || null,
        title: data.name,
        color: data.color,
        description: data.description || null,
        // Events recorded before they carried the label's timestamps: when the change was.
        createdAt: new Date(data.createdAt || envelope.occurredAt),
        updatedAt: new Date(data.updatedAt || envelope.occurredAt),
      }),
    );

  /** Whether the ref is a protected branch or tag (by name or wildcard). */
  async function isProtected(projectId: number, ref: string): Promise<boolean> {
    const tag = ref.startsWith('refs/tags/');
    if (!tag && !ref.startsWith('refs/heads/')) return false;
    const name = ref.replace(/^refs\/(heads|tags)\//, '');
    const names = tag ? await protectedTags.names(projectId) : await protectedBranches.names(projectId);
    return names.some((filter) => branchMatches({ strategy: 'wildcard', filter, branch: name }));
  }

  /** GitLab's sample of a trigger (`Integrations::ProjectTestData`): the project's latest of what the trigger is about. */
  async function sampleData(options: {
    trigger: keyof typeof TEST_SAMPLES;
    project: HookProject;
    caller: Caller;
  }): Promise<Record<string, unknown> | undefined> {
    const { trigger, project, caller } = options;
    const userId = caller.kind === 'user' ? caller.userId : undefined;
    if (trigger === 'push_events' || trigger === 'tag_push_events') {
      const ref = trigger === 'push_events' ? `refs/heads/${project.defaultBranch}` : `refs/tags/v1.0.0`;
      return pushPayload({
        push: { ref, refProtected: await isProtected(project.id, ref), before: BLANK_SHA, after: BLANK_SHA, commitCount: 0, commits: [] },
        project,
        user: userId ? (await directory.users([userId])).get(userId) : undefined,
      });
    }
    if (trigger === 'pipeline_events') {
      const pipeline = await pipelines.latest(project.id);
      if (!pipeline) return undefined;
      return pipelinePayload({
        pipeline,
        commit: await commitOf(project.id, pipeline.sha, caller.kind === 'user' ? caller : undefined),
        project,
        user: pipeline.userId ? (await directory.users([pipeline.userId])).get(pipeline.userId) : undefined,
      });
    }
    if (trigger === 'note_events') {
      const note = await notes.latest(project.id);
      const noteable = note && (await noteableOf(project.id, note, caller.kind === 'user' ? caller : undefined));
      if (!note || !noteable) return undefined;
      return notePayload({
        note,
        action: 'create',
        noteable,
        project,
        user: userId ? (await directory.users([userId])).get(userId) : undefined,
      });
    }
    if (trigger === 'deployment_events') {
      const deployment = await deployments.latest(project.id);
      if (!deployment) return undefined;
      // GitLab's sample says the deployment reached its status now.
      const titled = await withCommitTitle(deployment, project.id, caller.kind === 'user' ? caller : undefined);
      return deploymentPayload({
        deployment: { ...titled, statusChangedAt: new Date().toISOString() },
        project,
        user: deployment.userId ? (await directory.users([deployment.userId])).get(deployment.userId) : undefined,
      });
    }
    if (trigger === 'merge_requests_events') {
      const mergeRequest = await copies.latest<MergeRequestFacts>('MergeRequest', project.id);
      if (!mergeRequest) return undefined;
      const users = await directory.users([...mergeRequest.assigneeIds, ...mergeRequest.reviewerIds, ...(userId ? [userId] : [])]);
      return mergeRequestPayload({ mergeRequest, action: 'open', project, user: userId ? users.get(userId) : undefined, users });
    }
    const issue = await copies.latest<IssueFacts>('Issue', project.id);
    if (!issue) return undefined;
    const users = await directory.users([...issue.assigneeIds, ...(userId ? [userId] : [])]);
    return issuePayload({ issue, action: 'open', project, user: userId ? users.get(userId) : undefined, users });
  }

  const samples: TestSamples = {
    async sample({ trigger, projectId, caller }) {
      if (!Object.hasOwn(TEST_SAMPLES, trigger)) throw new UnprocessableError('Testing not available for this hook');
      const sample = TEST_SAMPLES[trigger as keyof typeof TEST_SAMPLES];
      const project = await directory.project(projectId);
      if (!project) throw new UnprocessableError('Ensure the project has at least one commit.');
      const data = await sampleData({ trigger: trigger as keyof typeof TEST_SAMPLES, project, caller });
      if (!data) throw new UnprocessableError('missing' in sample ? sample.missing : 'Testing not available for this hook');
      return { hookName: sample.hookName, data };
    },

    async groupProject(groupId) {
      const projectId = await pushedProjects.first(groupId);
      if (projectId === undefined) throw new UnprocessableError('Ensure the group has a project with commits.');
      return projectId;
    },
  };

  return {
    samples,
    consumes: [
      onEvent(reviewEvents.protectedBranchCreated, (data) =>
        protectedBranches.save({ id: data.protectedBranchId, projectId: data.projectId, name: data.name }),
      ),
      onEvent(reviewEvents.protectedBranchUpdated, (data) =>
        protectedBranches.save({ id: data.protectedBranchId, projectId: data.projectId, name: data.name }),
      ),
      onEvent(reviewEvents.protectedBranchDeleted, (data) => protectedBranches.remove(data.protectedBranchId)),
      onEvent(reviewEvents.protectedTagCreated, (data) =>
        protectedTags.save({ id: data.protectedTagId, projectId: data.projectId, name: data.name }),
      ),
      onEvent(reviewEvents.protectedTagDeleted, (data) => protectedTags.remove(data.protectedTagId)),
      onEvent(reviewEvents.repositoryPushed, async (data, envelope) => {
        await commits.save(
          data.commits.map((commit) => ({
            projectId: data.projectId,
            sha: commit.id,
            message: commit.message,
            authorName: commit.authorName,
            authorEmail: commit.authorEmail,
            timestamp: commit.timestamp,
          })),
        );
        const project = await directory.project(data.projectId);
        if (!project) return;
        const namespaceId = project.namespaceIds.at(-1);
        if (data.after !== BLANK_SHA && namespaceId !== undefined) await pushedProjects.save({ projectId: project.id, namespaceId });
        const tag = data.ref.startsWith('refs/tags/');
        const refProtected = await isProtected(data.projectId, data.ref);
        return deliverProjectEvent({
          project,
          projectId: data.projectId,
          envelope,
          trigger: tag
            ? { flag: 'tag_push_events', hookName: 'tag_push_hooks', system: true }
            : { flag: 'push_events', hookName: 'push_hooks', system: true, branch: data.ref.replace(/^refs\/heads\//, '') },
          build: async (project) =>
            pushPayload({
              push: {
                ref: data.ref,
                refProtected,
                before: data.before,
                after: data.after,
                commitCount: data.commitCount,
                commits: data.commits,
              },
              project,
              user: await actorOf(envelope),
            }),
        });
      }),
      mergeRequestHandler('open')(reviewEvents.mergeRequestCreated),
      mergeRequestHandler('update')(reviewEvents.mergeRequestUpdated),
      mergeRequestHandler('close')(reviewEvents.mergeRequestClosed),
      mergeRequestHandler('reopen')(reviewEvents.mergeRequestReopened),
      mergeRequestHandler('merge')(reviewEvents.mergeRequestMerged),
      approvalHandler(true)(reviewEvents.mergeRequestApproved),
      approvalHandler(false)(reviewEvents.mergeRequestUnapproved),
      noteHandler('create')(reviewEvents.noteCreated),
      noteHandler('update')(reviewEvents.noteUpdated),
      onEvent(reviewEvents.noteDeleted, (data) => notes.remove(data.noteId)),
      labelHandler(reviewEvents.labelCreated),
      labelHandler(reviewEvents.labelUpdated),
      onEvent(reviewEvents.labelDeleted, (data) => labels.remove(data.groupId ? 'GroupLabel' : 'ProjectLabel', data.labelId)),
      issueHandler('open')(reviewEvents.issueCreated),
      issueHandler('update')(reviewEvents.issueUpdated),
      issueHandler('close')(reviewEvents.issueClosed),
      issueHandler('reopen')(reviewEvents.issueReopened),
      onEvent(identityEvents.projectCreated, async ({ project }, envelope) => {
        if (!project) return;
        await deliverSystemEvent(
          envelope,
          projectSystemPayload({ event: 'project_create', project, owner: envelope.actor, occurredAt: envelope.occurredAt }),
        );
        await deliverGroupProjectEvent({ envelope, event: 'project_create', project });
      }),
      onEvent(identityEvents.projectDeleted, async ({ project }, envelope) => {
        if (!project) return;
        await pushedProjects.remove(project.id);
        await deliverSystemEvent(
          envelope,
          projectSystemPayload({ event: 'project_destroy', project, owner: envelope.actor, occurredAt: envelope.occurredAt }),
        );
        await deliverGroupProjectEvent({ envelope, event: 'project_destroy', project });
      }),
      onEvent(identityEvents.userCreated, async ({ user }, envelope) => {
        if (user) await deliverSystemEvent(envelope, userSystemPayload({ event: 'user_create', user, occurredAt: envelope.occurredAt }));
      }),
      onEvent(identityEvents.userDeleted, async ({ user }, envelope) => {
        if (user) await deliverSystemEvent(envelope, userSystemPayload({ event: 'user_destroy', user, occurredAt: envelope.occurredAt }));
      }),
      onEvent(identityEvents.groupCreated, async ({ group }, envelope) => {
        if (!group) return;
        await deliverSystemEvent(envelope, groupSystemPayload({ event: 'group_create', group, occurredAt: envelope.occurredAt }));
        await deliverSubgroupEvent({ envelope, event: 'subgroup_create', subgroup: group });
      }),
      deploymentHandler(deliveryEvents.deploymentCreated),
      deploymentHandler(deliveryEvents.deploymentUpdated),
      pipelineHandler(deliveryEvents.pipelineCreated),
      pipelineHandler(deliveryEvents.pipelineUpdated),
      onEvent(deliveryEvents.featureFlagToggled, (data, envelope) =>
        deliverProjectEvent({
          projectId: data.projectId,
          envelope,
          trigger: { flag: 'feature_flag_events', hookName: 'feature_flag_hooks', system: false },
          build: async (project) =>
            featureFlagPayload({
              featureFlag: { id: data.featureFlagId, name: data.name, description: data.description || null, active: data.active },
              project,
              user: await actorOf(envelope),
            }),
        }),
      ),
      onEvent(identityEvents.memberAdded, ({ member }, envelope) => deliverMemberEvent(envelope, member, 'create')),
      onEvent(identityEvents.memberUpdated, ({ member }, envelope) => deliverMemberEvent(envelope, member, 'update')),
      onEvent(identityEvents.memberRemoved, ({ member }, envelope) => deliverMemberEvent(envelope, member, 'destroy')),
      onEvent(identityEvents.accessRequested, ({ request }, envelope) => deliverMemberEvent(envelope, request, 'request')),
      onEvent(identityEvents.accessRequestApproved, ({ member }, envelope) => deliverMemberEvent(envelope, member, 'create')),
      onEvent(identityEvents.accessRequestDenied, ({ request }, envelope) => deliverMemberEvent(envelope, request, 'revoke')),
      onEvent(identityEvents.projectUpdated, async ({ project, changes }, envelope) => {
        if (!project) return;
        const path = changes.find((change) => change.attribute === 'path');
        const owner = envelope.actor;
        const occurredAt = envelope.occurredAt;
        if (path) {
          const namespace = project.pathWithNamespace.split('/').slice(0, -1).join('/');
          const oldPathWithNamespace = `${namespace}/${path.from}`;
          await deliverSystemEvent(
            envelope,
            projectSystemPayload({ event: 'project_rename', project, owner, occurredAt, oldPathWithNamespace }),
          );
        } else {
          await deliverSystemEvent(envelope, projectSystemPayload({ event: 'project_update', project, owner, occurredAt }));
        }
      }),
      onEvent(identityEvents.projectTransferred, async ({ project, previousPathWithNamespace }, envelope) => {
        if (!project) return;
        await pushedProjects.move(project.id, project.namespaceId);
        await deliverSystemEvent(
          envelope,
          projectSystemPayload({
            event: 'project_transfer',
            project,
            owner: envelope.actor,
            occurredAt: envelope.occurredAt,
            oldPathWithNamespace: previousPathWithNamespace,
          }),
        );
      }),
      onEvent(identityEvents.userUpdated, async ({ user, changes }, envelope) => {
        const username = changes.find((change) => change.attribute === 'username');
        if (user && username)
          await deliverSystemEvent(
            envelope,
            userSystemPayload({ event: 'user_rename', user, occurredAt: envelope.occurredAt, oldUsername: username.from }),
          );
      }),
      onEvent(identityEvents.groupUpdated, async ({ group, changes }, envelope) => {
        const path = changes.find((change) => change.attribute === 'path');
        if (group && path)
          await deliverSystemEvent(
            envelope,
            groupSystemPayload({ event: 'group_rename', group, occurredAt: envelope.occurredAt, oldPath: path.from }),
          );
      }),
      onEvent(identityEvents.groupDeleted, async ({ group }, envelope) => {
        if (!group) return;
        await deliverSystemEvent(envelope, groupSystemPayload({ event: 'group_destroy', group, occurredAt: envelope.occurredAt }));
        await deliverSubgroupEvent({ envelope, event: 'subgroup_destroy', subgroup: group });
      }),
    ],
  };
}
