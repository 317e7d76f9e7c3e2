import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import { packagesEvents } from '@platform/packages-client';
import { reviewEvents } from '@platform/review-client';
import { MembershipSourceType } from '@platform/proto/identity/v1/namespace-events';
import { activityTranslations } from './activity-translations.ts';

const ada = { id: 4, username: 'ada', name: 'Ada' };
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);

function envelope(event: { type: string; data: Record<string, unknown> }, actor: EventEnvelope['actor'] = ada): EventEnvelope {
  return { id: randomUUID(), occurredAt: '2026-11-22T10:00:00.000Z', aggregateId: '7', actor, traceContext: {}, ...event };
}

function activityOf(event: EventEnvelope) {
  return activityTranslations.find((translation) => translation.type === event.type)?.handle(event);
}

const member = (sourceType: MembershipSourceType, accessLevel = 30) => ({
  id: 1,
  sourceType,
  sourceId: 7,
  sourceFullPath: 'acme/app',
  userId: 9,
  username: 'grace',
  userName: 'Grace',
  accessLevel,
  expiresAt: '',
  userEmail: '',
  sourceName: '',
});

describe('activity of domain events', () => {
  it('turns a push into push_data as GitLab shows it, by the pushing user', () => {
    const pushed = envelope(
      reviewEvents.repositoryPushed.event({
        aggregateId: 7,
        data: {
          projectId: 7,
          ref: 'refs/heads/main',
          before: A,
          after: B,
          commitCount: 2,
          commitTitles: ['Second'.padEnd(80, '!'), 'First'],
          commits: [],
        },
      }),
    );
    expect(activityOf(pushed)).toMatchObject({
      projectId: 7,
      authorId: 4,
      authorUsername: 'ada',
      action: 'pushed',
      targetType: null,
      sourceEventId: pushed.id,
      createdAt: new Date('2026-11-22T10:00:00.000Z'),
      pushData: {
        commit_count: 2,
        action: 'pushed',
        ref_type: 'branch',
        commit_from: A,
        commit_to: B,
        ref: 'main',
        commit_title: 'Second'.padEnd(70, '!'),
        ref_count: null,
      },
    });
  });

  it('names a new ref as created without commit_from, and a deleted tag as removed without commit_to', () => {
    const created = activityOf(
      envelope(
        reviewEvents.repositoryPushed.event({
          aggregateId: 7,
          data: { projectId: 7, ref: 'refs/heads/feature/x', before: ZERO, after: A, commitCount: 1, commitTitles: ['Add x'], commits: [] },
        }),
      ),
    );
    expect(created?.pushData).toMatchObject({ action: 'created', commit_from: null, commit_to: A, ref: 'feature/x', ref_type: 'branch' });
    const removed = activityOf(
      envelope(
        reviewEvents.repositoryPushed.event({
          aggregateId: 7,
          data: { projectId: 7, ref: 'refs/tags/v1.0', before: A, after: ZERO, commitCount: 0, commitTitles: [], commits: [] },
        }),
      ),
    );
    expect(removed?.pushData).toMatchObject({
      action: 'removed',
      commit_from: A,
      commit_to: null,
      ref: 'v1.0',
      ref_type: 'tag',
      commit_title: null,
    });
  });

  it('records merge requests opened, closed, reopened and merged with their target', () => {
    const data = {
      projectId: 7,
      mergeRequestId: 31,
      iid: 2,
      title: 'Add x',
      state: 'opened',
      sourceBranch: 'x',
      targetBranch: 'main',
      authorId: 4,
      mergeCommitSha: '',
      description: '',
      sourceProjectId: 7,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      assigneeIds: [],
      reviewerIds: [],
      milestoneId: 0,
      mergeStatus: 'unchecked',
      timeEstimate: 0,
      totalTimeSpent: 0,
      labels: [],
    };
    const actions = [
      reviewEvents.mergeRequestCreated,
      reviewEvents.mergeRequestClosed,
      reviewEvents.mergeRequestReopened,
      reviewEvents.mergeRequestMerged,
    ].map((definition) => activityOf(envelope(definition.event({ aggregateId: 7, data }))));
    expect(actions.map((activity) => activity?.action)).toEqual(['created', 'closed', 'reopened', 'merged']);
    expect(actions[0]).toMatchObject({ targetType: 'MergeRequest', targetId: 31, targetIid: 2, targetTitle: 'Add x' });
    // An update of a merge request is no activity in GitLab.
    expect(activityOf(envelope(reviewEvents.mergeRequestUpdated.event({ aggregateId: 7, data })))).toBeUndefined();
  });

  it('turns issues opened, closed and reopened into Issue activity, and nothing for an update', () => {
    const data = {
      projectId: 7,
      issueId: 51,
      iid: 3,
      title: 'Crash on save',
      state: 'opened',
      authorId: 4,
      description: '',
      confidential: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      closedAt: '',
      assigneeIds: [],
      milestoneId: 0,
      dueDate: '',
      labels: [],
    };
    const actions = [reviewEvents.issueCreated, reviewEvents.issueClosed, reviewEvents.issueReopened].map((definition) =>
      activityOf(envelope(definition.event({ aggregateId: 7, data }))),
    );
    expect(actions.map((activity) => activity?.action)).toEqual(['created', 'closed', 'reopened']);
    expect(actions[1]).toMatchObject({
      projectId: 7,
      authorId: 4,
      targetType: 'Issue',
      targetId: 51,
      targetIid: 3,
      targetTitle: 'Crash on save',
    });
    expect(activityOf(envelope(reviewEvents.issueUpdated.event({ aggregateId: 7, data })))).toBeUndefined();
    // Closed by the system (no actor): nobody's activity.
    expect(activityOf(envelope(reviewEvents.issueClosed.event({ aggregateId: 7, data }), null))).toBeUndefined();
  });

  it("turns project milestones created, closed, reopened and deleted into Milestone activity, and a group milestone's into none", () => {
    const milestoneEvents = [
      reviewEvents.milestoneCreated,
      reviewEvents.milestoneClosed,
      reviewEvents.milestoneReopened,
      reviewEvents.milestoneDeleted,
    ];
    const data = { projectId: 7, milestoneId: 12, iid: 2, title: 'v1.0', state: 'active' };
    const actions = milestoneEvents.map((definition) => activityOf(envelope(definition.event({ aggregateId: 7, data }))));
    expect(actions.map((activity) => activity?.action)).toEqual(['created', 'closed', 'reopened', 'destroyed']);
    expect(actions[0]).toMatchObject({ projectId: 7, targetType: 'Milestone', targetId: 12, targetIid: 2, targetTitle: 'v1.0' });
    // No project's activity: it would be recorded against project 0.
    const ofGroup = { ...data, projectId: 0 };
    for (const definition of milestoneEvents) {
      expect(activityOf(envelope(definition.event({ aggregateId: 5, data: ofGroup })))).toBeUndefined();
    }
  });

  it('credits joining and leaving a project to the member, not to whoever added them; groups and owners have none', () => {
    const project = MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_PROJECT;
    const joined = activityOf(envelope(identityEvents.memberAdded.event({ aggregateId: 7, data: { member: member(project) } })));
    expect(joined).toMatchObject({ action: 'joined', authorId: 9, authorUsername: 'grace', authorName: 'Grace', projectId: 7 });
    const left = activityOf(envelope(identityEvents.memberRemoved.event({ aggregateId: 7, data: { member: member(project) } })));
    expect(left).toMatchObject({ action: 'left', authorId: 9 });
    const approved = activityOf(
      envelope(identityEvents.accessRequestApproved.event({ aggregateId: 7, data: { member: member(project) } })),
    );
    expect(approved).toMatchObject({ action: 'joined', authorId: 9 });
    const group = MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_GROUP;
    expect(activityOf(envelope(identityEvents.memberAdded.event({ aggregateId: 7, data: { member: member(group) } })))).toBeUndefined();
    expect(
      activityOf(envelope(identityEvents.memberAdded.event({ aggregateId: 7, data: { member: member(project, 50) } }))),
    ).toBeUndefined();
  });

  it('records a project created by a user, and nothing done by the system or by package and container registry events', () => {
    const project = {
      id: 7,
      name: 'App',
      path: 'app',
      pathWithNamespace: 'acme/app',
      nameWithNamespace: 'Acme / App',
      namespaceId: 3,
      visibility: 'private',
      archived: false,
    };
    expect(activityOf(envelope(identityEvents.projectCreated.event({ aggregateId: 7, data: { project } })))).toMatchObject({
      action: 'created',
      projectId: 7,
      targetType: null,
    });
    expect(activityOf(envelope(identityEvents.projectCreated.event({ aggregateId: 7, data: { project } }), null))).toBeUndefined();
    const published = envelope(
      packagesEvents.packagePublished.event({
        aggregateId: 7,
        data: { projectId: 7, packageId: 1, name: 'kit', version: '1.0.0', packageType: 'npm', projectPath: 'acme/app' },
      }),
    );
    expect(activityOf(published)).toBeUndefined();
    const tag = { projectId: 7, repositoryId: 2, repositoryPath: 'acme/app', tag: 'v1', digest: 'sha256:0', projectPath: 'acme/app' };
    expect(activityOf(envelope(packagesEvents.containerTagPushed.event({ aggregateId: 7, data: tag })))).toBeUndefined();
    expect(activityOf(envelope(packagesEvents.containerTagDeleted.event({ aggregateId: 7, data: tag })))).toBeUndefined();
  });

  it('records a comment on a merge request as commented on its Note, with the note, and no system note', () => {
    const data = {
      projectId: 7,
      noteId: 12,
      body: 'Looks good',
      noteableType: 'MergeRequest',
      noteableId: 31,
      noteableIid: 2,
      noteableTitle: 'Add x',
      authorId: 4,
      system: false,
      createdAt: '2026-11-22T09:59:59.000Z',
      commitId: '',
    };
    expect(activityOf(envelope(reviewEvents.noteCreated.event({ aggregateId: 7, data })))).toMatchObject({
      action: 'commented',
      projectId: 7,
      authorId: 4,
      targetType: 'Note',
      targetId: 12,
      targetIid: 12,
      targetTitle: 'Add x',
      note: {
        id: 12,
        body: 'Looks good',
        created_at: '2026-11-22T09:59:59.000Z',
        system: false,
        noteable_id: 31,
        noteable_type: 'MergeRequest',
        noteable_iid: 2,
      },
    });
    expect(activityOf(envelope(reviewEvents.noteCreated.event({ aggregateId: 7, data: { ...data, system: true } })))).toBeUndefined();
    // Editing or deleting a comment is no activity in GitLab.
    expect(activityOf(envelope(reviewEvents.noteUpdated.event({ aggregateId: 7, data })))).toBeUndefined();
  });
});
