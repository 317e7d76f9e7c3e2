/**
 * Every event review publishes, declared once: review records them and consumers (audit, ...)
 * decode them through these definitions. Their data are the messages of `proto/review/v1/events.proto`.
 */
import { defineEvent } from '@platform/events';
import {
  ApprovalRuleChanged,
  IssueChanged,
  LabelChanged,
  MergeRequestApprovalChanged,
  MergeRequestChanged,
  NoteChanged,
  MilestoneChanged,
  ProtectedBranchChanged,
  ProtectedTagChanged,
  RepositoryPushed,
  RepositoryStorageChanged,
  RepositoryStorageMoveChanged,
} from '@platform/proto/review/v1/events';

/** Review's events travel on one topic, keyed by the project id. */
export const REVIEW_TOPIC = 'review.events';

export const reviewEvents = {
  repositoryPushed: defineEvent('review.repository.pushed', RepositoryPushed, { topic: REVIEW_TOPIC }),
  mergeRequestCreated: defineEvent('review.merge_request.created', MergeRequestChanged, { topic: REVIEW_TOPIC }),
  mergeRequestUpdated: defineEvent('review.merge_request.updated', MergeRequestChanged, { topic: REVIEW_TOPIC }),
  mergeRequestClosed: defineEvent('review.merge_request.closed', MergeRequestChanged, { topic: REVIEW_TOPIC }),
  mergeRequestReopened: defineEvent('review.merge_request.reopened', MergeRequestChanged, { topic: REVIEW_TOPIC }),
  mergeRequestMerged: defineEvent('review.merge_request.merged', MergeRequestChanged, { topic: REVIEW_TOPIC }),
  mergeRequestApproved: defineEvent('review.merge_request.approved', MergeRequestApprovalChanged, { topic: REVIEW_TOPIC }),
  mergeRequestUnapproved: defineEvent('review.merge_request.unapproved', MergeRequestApprovalChanged, { topic: REVIEW_TOPIC }),
  approvalRuleCreated: defineEvent('review.approval_rule.created', ApprovalRuleChanged, { topic: REVIEW_TOPIC }),
  approvalRuleUpdated: defineEvent('review.approval_rule.updated', ApprovalRuleChanged, { topic: REVIEW_TOPIC }),
  approvalRuleDeleted: defineEvent('review.approval_rule.deleted', ApprovalRuleChanged, { topic: REVIEW_TOPIC }),
  protectedBranchCreated: defineEvent('review.protected_branch.created', ProtectedBranchChanged, { topic: REVIEW_TOPIC }),
  protectedBranchUpdated: defineEvent('review.protected_branch.updated', ProtectedBranchChanged, { topic: REVIEW_TOPIC }),
  protectedBranchDeleted: defineEvent('review.protected_branch.deleted', ProtectedBranchChanged, { topic: REVIEW_TOPIC }),
  protectedTagCreated: defineEvent('review.protected_tag.created', ProtectedTagChanged, { topic: REVIEW_TOPIC }),
  protectedTagDeleted: defineEvent('review.protected_tag.deleted', ProtectedTagChanged, { topic: REVIEW_TOPIC }),
  noteCreated: defineEvent('review.note.created', NoteChanged, { topic: REVIEW_TOPIC }),
  noteUpdated: defineEvent('review.note.updated', NoteChanged, { topic: REVIEW_TOPIC }),
  noteDeleted: defineEvent('review.note.deleted', NoteChanged, { topic: REVIEW_TOPIC }),
  repositoryStorageChanged: defineEvent('review.repository.storage_changed', RepositoryStorageChanged, { topic: REVIEW_TOPIC }),
  storageMoveScheduled: defineEvent('review.repository_storage_move.scheduled', RepositoryStorageMoveChanged, { topic: REVIEW_TOPIC }),
  storageMoveStarted: defineEvent('review.repository_storage_move.started', RepositoryStorageMoveChanged, { topic: REVIEW_TOPIC }),
  storageMoveReplicated: defineEvent('review.repository_storage_move.replicated', RepositoryStorageMoveChanged, { topic: REVIEW_TOPIC }),
  storageMoveFinished: defineEvent('review.repository_storage_move.finished', RepositoryStorageMoveChanged, { topic: REVIEW_TOPIC }),
  storageMoveFailed: defineEvent('review.repository_storage_move.failed', RepositoryStorageMoveChanged, { topic: REVIEW_TOPIC }),
  storageMoveCleanupFailed: defineEvent('review.repository_storage_move.cleanup_failed', RepositoryStorageMoveChanged, {
    topic: REVIEW_TOPIC,
  }),
  labelCreated: defineEvent('review.label.created', LabelChanged, { topic: REVIEW_TOPIC }),
  labelUpdated: defineEvent('review.label.updated', LabelChanged, { topic: REVIEW_TOPIC }),
  labelDeleted: defineEvent('review.label.deleted', LabelChanged, { topic: REVIEW_TOPIC }),
  milestoneCreated: defineEvent('review.milestone.created', MilestoneChanged, { topic: REVIEW_TOPIC }),
  milestoneUpdated: defineEvent('review.milestone.updated', MilestoneChanged, { topic: REVIEW_TOPIC }),
  milestoneClosed: defineEvent('review.milestone.closed', MilestoneChanged, { topic: REVIEW_TOPIC }),
  milestoneReopened: defineEvent('review.milestone.reopened', MilestoneChanged, { topic: REVIEW_TOPIC }),
  milestoneDeleted: defineEvent('review.milestone.deleted', MilestoneChanged, { topic: REVIEW_TOPIC }),
  issueCreated: defineEvent('review.issue.created', IssueChanged, { topic: REVIEW_TOPIC }),
  issueUpdated: defineEvent('review.issue.updated', IssueChanged, { topic: REVIEW_TOPIC }),
  issueClosed: defineEvent('review.issue.closed', IssueChanged, { topic: REVIEW_TOPIC }),
  issueReopened: defineEvent('review.issue.reopened', IssueChanged, { topic: REVIEW_TOPIC }),
};
