/**
 * The bodies GitLab sends (`Gitlab::DataBuilder::*`, `SystemHooksService`), built from the
 * domain events and what identity says of projects and users.
 */
import type { HookProject, HookUser } from './project-directory.ts';

const VISIBILITY_LEVELS = { private: 0, internal: 10, public: 20 } as const;
export const BLANK_SHA = '0000000000000000000000000000000000000000';

/** `git@host:group/project.git`, as GitLab names the SSH remote. */
function sshUrl(project: HookProject): string {
  return `git@${new URL(project.webUrl).hostname}:${project.pathWithNamespace}.git`;
}

/** A project's `hook_attrs`. */
export function projectAttributes(project: HookProject) {
  const httpUrl = `${project.webUrl}.git`;
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    web_url: project.webUrl,
    avatar_url: null,
    git_ssh_url: sshUrl(project),
    git_http_url: httpUrl,
    namespace: project.namespaceName,
    visibility_level: VISIBILITY_LEVELS[project.visibility],
    path_with_namespace: project.pathWithNamespace,
    default_branch: project.defaultBranch,
    ci_config_path: null,
    homepage: project.webUrl,
    url: sshUrl(project),
    ssh_url: sshUrl(project),
    http_url: httpUrl,
  };
}

function repositoryAttributes(project: HookProject) {
  return {
    name: project.name,
    url: sshUrl(project),
    description: project.description,
    homepage: project.webUrl,
    git_http_url: `${project.webUrl}.git`,
    git_ssh_url: sshUrl(project),
    visibility_level: VISIBILITY_LEVELS[project.visibility],
  };
}

/** A user's `hook_attrs`: the email is never sent. */
export function userAttributes(user: HookUser | undefined) {
  return {
    id: user?.id ?? 0,
    name: user?.name ?? '',
    username: user?.username ?? '',
    avatar_url: user?.avatarUrl ?? null,
    email: '[REDACTED]',
  };
}

/** A pushed commit as the push event carries it. */
export interface PushedCommitFacts {
  id: string;
  message: string;
  authorName: string;
  authorEmail: string;
  timestamp: string;
  added: string[];
  modified: string[];
  removed: string[];
}

export interface PushFacts {
  ref: string;
  /** Whether the pushed branch is protected. */
  refProtected: boolean;
  before: string;
  after: string;
  commitCount: number;
  /** The newest twenty at most, oldest first. */
  commits: PushedCommitFacts[];
}

/** GitLab's `Commit#title`: the first line, cut after eighty characters at a space when it is a hundred or more. */
export function commitTitle(message: string): string {
  const [firstLine = ''] = message.split(/[\r\n]/, 1);
  if (message.trim() === '') return 'No commit message';
  if (firstLine.length < 100) return firstLine;
  const space = firstLine.lastIndexOf(' ', 80);
  return `${firstLine.slice(0, space === -1 ? 80 : space)}…`;
}

/** A commit's `hook_attrs` with its changed files. */
function commitAttributes(commit: PushedCommitFacts, project: HookProject) {
  return {
    ...commitHookAttributes(commit, project),
    added: commit.added,
    modified: commit.modified,
    removed: commit.removed,
  };
}

/** A push or tag push (`Gitlab::DataBuilder::Push`). */
export function pushPayload(options: { push: PushFacts; project: HookProject; user: HookUser | undefined }) {
  const { push, project, user } = options;
  const tag = push.ref.startsWith('refs/tags/');
  const kind = tag ? 'tag_push' : 'push';
  return {
    object_kind: kind,
    event_name: kind,
    before: push.before,
    after: push.after,
    ref: push.ref,
    ref_protected: push.refProtected,
    checkout_sha: push.after === BLANK_SHA ? null : push.after,
    message: null,
    user_id: user?.id ?? 0,
    user_name: user?.name ?? '',
    user_username: user?.username ?? '',
    user_email: '',
    user_avatar: user?.avatarUrl ?? null,
    project_id: project.id,
    project: projectAttributes(project),
    commits: push.commits.map((commit) => commitAttributes(commit, project)),
    total_commits_count: push.commitCount,
    push_options: {},
    repository: repositoryAttributes(project),
  };
}

/** `approval`/`unapproval` for one user's approval; `approved`/`unapproved` when the merge request becomes (or stops being) approved. */
/** A project or group label as payloads show it. */
export interface LabelFacts {
  id: number;
  type: 'ProjectLabel' | 'GroupLabel';
  title: string;
  color: string;
  description: string | null;
  projectId: number | null;
  groupId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** A label's `hook_attrs`. */
function labelAttributes(label: LabelFacts) {
  return {
    id: label.id,
    title: label.title,
    color: label.color,
    project_id: label.projectId,
    created_at: hookTimestamp(label.createdAt),
    updated_at: hookTimestamp(label.updatedAt),
    template: false,
    description: label.description,
    type: label.type,
    group_id: label.groupId,
  };
}

export type MergeRequestAction = 'open' | 'update' | 'close' | 'reopen' | 'merge' | 'approved' | 'unapproved' | 'approval' | 'unapproval';

export interface MergeRequestFacts {
  id: number;
  iid: number;
  title: string;
  state: string;
  sourceBranch: string;
  targetBranch: string;
  authorId: number;
  mergeCommitSha: string | null;
  description: string;
  sourceProjectId: number;
  createdAt: string;
  updatedAt: string;
  assigneeIds: number[];
  reviewerIds: number[];
  milestoneId: number | null;
  mergeStatus: string;
  /** Seconds. */
  timeEstimate: number;
  totalTimeSpent: number;
  labels: LabelFacts[];
  /** The source branch's head as its push described it; null (or absent, in copies kept before) when unknown. */
  lastCommit?: CommitFacts | null;
}

/** GitLab's `state_id` of a merge request's state. */
const MERGE_REQUEST_STATE_IDS: Record<string, number> = { opened: 1, closed: 2, merged: 3, locked: 4 };

/** A timestamp as GitLab's hook payloads show it: to the second, in UTC. */
export function hookTimestamp(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** GitLab's `Gitlab::TimeTrackingFormatter` output (`1h 30m`), null for none. */
function humanDuration(seconds: number): string | null {
  if (seconds <= 0) return null;
  const units: Array<[string, number]> = [
    ['mo', 4 * 5 * 8 * 3600],
    ['w', 5 * 8 * 3600],
    ['d', 8 * 3600],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ];
  let left = seconds;
  const parts: string[] = [];
  for (const [unit, size] of units) {
    const count = Math.floor(left / size);
    if (count > 0) parts.push(`${count}${unit}`);
    left -= count * size;
  }
  return parts.join(' ');
}

/** Users by id, as identity knows them. */
export type HookUsers = Map<number, HookUser>;

/** The `hook_attrs` of the users with these ids that identity knows. */
function usersAttributes(ids: number[], users: HookUsers) {
  return ids.flatMap((id) => {
    const user = users.get(id);
    return user ? [userAttributes(user)] : [];
  });
}

/** A timestamp as `changes` show it (Ruby's `Time#to_s` in UTC): `2017-09-15 16:50:55 UTC`. */
export function changeTimestamp(iso: string | null): string | null {
  return iso === null ? null : `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The attributes whose changes show as timestamps, compared to the millisecond. */
const TIMESTAMP_ATTRIBUTES = new Set(['updated_at', 'closed_at']);

/** GitLab's `changes`: `{ previous, current }` for each attribute whose value differs. */
function changesOf(entries: Array<[string, unknown, unknown]>): Record<string, { previous: unknown; current: unknown }> {
  const changes: Record<string, { previous: unknown; current: unknown }> = {};
  for (const [key, previous, current] of entries) {
    if (JSON.stringify(previous) === JSON.stringify(current)) continue;
    changes[key] = TIMESTAMP_ATTRIBUTES.has(key)
      ? { previous: changeTimestamp(previous as string | null), current: changeTimestamp(current as string | null) }
      : { previous, current };
  }
  return changes;
}

const isDraft = (title: string) => /^(\[draft\]|\(draft\)|draft:|draft\s-)/i.test(title);

/** A merge request's `hook_attrs`, what its events and the events of its notes show of it. */
export function mergeRequestAttributes(mergeRequest: MergeRequestFacts, project: HookProject) {
  const attributes = projectAttributes(project);
  const draft = isDraft(mergeRequest.title);
  return {
    assignee_id: mergeRequest.assigneeIds[0] ?? null,
    author_id: mergeRequest.authorId,
    created_at: hookTimestamp(mergeRequest.createdAt),
    description: mergeRequest.description,
    draft,
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    last_commit: mergeRequest.lastCommit ? commitHookAttributes(mergeRequest.lastCommit, project) : null,
    merge_commit_sha: mergeRequest.mergeCommitSha,
    merge_status: mergeRequest.mergeStatus,
    milestone_id: mergeRequest.milestoneId,
    source_branch: mergeRequest.sourceBranch,
    source_project_id: mergeRequest.sourceProjectId,
    state_id: MERGE_REQUEST_STATE_IDS[mergeRequest.state] ?? 1,
    target_branch: mergeRequest.targetBranch,
    target_project_id: project.id,
    time_estimate: mergeRequest.timeEstimate,
    title: mergeRequest.title,
    updated_at: hookTimestamp(mergeRequest.updatedAt),
    assignee_ids: mergeRequest.assigneeIds,
    human_time_estimate: humanDuration(mergeRequest.timeEstimate),
    human_total_time_spent: humanDuration(mergeRequest.totalTimeSpent),
    reviewer_ids: mergeRequest.reviewerIds,
    source: attributes,
    state: mergeRequest.state,
    target: attributes,
    total_time_spent: mergeRequest.totalTimeSpent,
    url: `${project.webUrl}/-/merge_requests/${mergeRequest.iid}`,
    work_in_progress: draft,
    labels: mergeRequest.labels.map(labelAttributes),
  };
}

/** What changed from the merge request's previous state, as GitLab's `changes` name it. */
function mergeRequestChanges(previous: MergeRequestFacts, current: MergeRequestFacts, users: HookUsers) {
  return changesOf([
    ['title', previous.title, current.title],
    ['description', previous.description, current.description],
    ['state_id', MERGE_REQUEST_STATE_IDS[previous.state] ?? 1, MERGE_REQUEST_STATE_IDS[current.state] ?? 1],
    ['draft', isDraft(previous.title), isDraft(current.title)],
    ['source_branch', previous.sourceBranch, current.sourceBranch],
    ['target_branch', previous.targetBranch, current.targetBranch],
    ['milestone_id', previous.milestoneId, current.milestoneId],
    ['merge_commit_sha', previous.mergeCommitSha, current.mergeCommitSha],
    ['merge_status', previous.mergeStatus, current.mergeStatus],
    ['time_estimate', previous.timeEstimate, current.timeEstimate],
    ['updated_at', previous.updatedAt, current.updatedAt],
    ['assignees', usersAttributes(previous.assigneeIds, users), usersAttributes(current.assigneeIds, users)],
    ['reviewers', usersAttributes(previous.reviewerIds, users), usersAttributes(current.reviewerIds, users)],
    ['total_time_spent', previous.totalTimeSpent, current.totalTimeSpent],
    ['labels', previous.labels.map(labelAttributes), current.labels.map(labelAttributes)],
  ]);
}

/**
 * A merge request event (`Gitlab::DataBuilder::MergeRequest` / `MergeRequest#hook_attrs`): `changes`
 * from its `previous` state (none for a new one), its assignees and reviewers when it has some.
 */
export function mergeRequestPayload(options: {
  mergeRequest: MergeRequestFacts;
  action: MergeRequestAction;
  project: HookProject;
  user: HookUser | undefined;
  /** The assignees and reviewers, of now and before. */
  users?: HookUsers;
  previous?: MergeRequestFacts;
}) {
  const { mergeRequest, action, project, user, previous } = options;
  const users = options.users ?? new Map();
  const assignees = usersAttributes(mergeRequest.assigneeIds, users);
  const reviewers = usersAttributes(mergeRequest.reviewerIds, users);
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: userAttributes(user),
    project: projectAttributes(project),
    object_attributes: { ...mergeRequestAttributes(mergeRequest, project), action },
    labels: mergeRequest.labels.map(labelAttributes),
    changes: previous ? mergeRequestChanges(previous, mergeRequest, users) : {},
    repository: { name: project.name, url: sshUrl(project), description: project.description, homepage: project.webUrl },
    ...(assignees.length > 0 ? { assignees } : {}),
    ...(reviewers.length > 0 ? { reviewers } : {}),
  };
}

export type IssueAction = 'open' | 'update' | 'close' | 'reopen';

export interface IssueFacts {
  id: number;
  iid: number;
  title: string;
  description: string;
  /** opened or closed. */
  state: string;
  confidential: boolean;
  authorId: number;
  assigneeIds: number[];
  milestoneId: number | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  labels: LabelFacts[];
}

/** An issue's `hook_attrs`, what its events and the events of its notes show of it. */
export function issueAttributes(issue: IssueFacts, project: HookProject) {
  return {
    author_id: issue.authorId,
    closed_at: issue.closedAt ? hookTimestamp(issue.closedAt) : null,
    confidential: issue.confidential,
    created_at: hookTimestamp(issue.createdAt),
    description: issue.description,
    due_date: issue.dueDate,
    id: issue.id,
    iid: issue.iid,
    milestone_id: issue.milestoneId,
    project_id: project.id,
    state_id: issue.state === 'closed' ? 2 : 1,
    title: issue.title,
    updated_at: hookTimestamp(issue.updatedAt),
    type: 'Issue',
    url: `${project.webUrl}/-/issues/${issue.iid}`,
    assignee_ids: issue.assigneeIds,
    assignee_id: issue.assigneeIds[0] ?? null,
    labels: issue.labels.map(labelAttributes),
    state: issue.state,
  };
}

/** What changed from the issue's previous state, as GitLab's `changes` name it. */
function issueChanges(previous: IssueFacts, current: IssueFacts, users: HookUsers) {
  return changesOf([
    ['title', previous.title, current.title],
    ['description', previous.description, current.description],
    ['state_id', previous.state === 'closed' ? 2 : 1, current.state === 'closed' ? 2 : 1],
    ['confidential', previous.confidential, current.confidential],
    ['milestone_id', previous.milestoneId, current.milestoneId],
    ['due_date', previous.dueDate, current.dueDate],
    ['closed_at', previous.closedAt, current.closedAt],
    ['updated_at', previous.updatedAt, current.updatedAt],
    ['assignees', usersAttributes(previous.assigneeIds, users), usersAttributes(current.assigneeIds, users)],
    ['labels', previous.labels.map(labelAttributes), current.labels.map(labelAttributes)],
  ]);
}

/**
 * An issue event (`Gitlab::DataBuilder::Issuable` / `Issue#hook_attrs`); a confidential issue's is
 * a `confidential_issue` event. `changes` from its `previous` state (none for a new one).
 */
export function issuePayload(options: {
  issue: IssueFacts;
  action: IssueAction;
  project: HookProject;
  user: HookUser | undefined;
  /** The assignees, of now and before. */
  users?: HookUsers;
  previous?: IssueFacts;
}) {
  const { issue, action, project, user, previous } = options;
  const users = options.users ?? new Map();
  const assignees = usersAttributes(issue.assigneeIds, users);
  return {
    object_kind: 'issue',
    event_type: issue.confidential ? 'confidential_issue' : 'issue',
    user: userAttributes(user),
    project: projectAttributes(project),
    object_attributes: { ...issueAttributes(issue, project), action },
    repository: { name: project.name, url: sshUrl(project), description: project.description, homepage: project.webUrl },
    ...(assignees.length > 0 ? { assignees, assignee: assignees[0] } : {}),
    labels: issue.labels.map(labelAttributes),
    changes: previous ? issueChanges(previous, issue, users) : {},
  };
}

export interface NoteFacts {
  id: number;
  body: string;
  /** `MergeRequest` or `Issue`. */
  noteableType: string;
  noteableId: number;
  noteableIid: number;
  authorId: number;
  createdAt: string;
  updatedAt: string;
}

/** A commit as its push described it: what a comment on it shows. */
export interface CommitFacts {
  id: string;
  message: string;
  authorName: string;
  authorEmail: string;
  timestamp: string;
}

/** A commit's `hook_attrs`, without changed files. */
export function commitHookAttributes(commit: CommitFacts, project: HookProject) {
  return {
    id: commit.id,
    message: commit.message,
    title: commitTitle(commit.message),
    timestamp: commit.timestamp,
    url: `${project.webUrl}/-/commit/${commit.id}`,
    author: { name: commit.authorName, email: commit.authorEmail },
  };
}

/** What a note is on, as far as its earlier events told. */
export type Noteable = { mergeRequest: MergeRequestFacts } | { issue: IssueFacts } | { commit: CommitFacts };

/** The part of a note's payload naming what it is on. */
function noteableAttributes(noteable: Noteable, project: HookProject) {
  if ('mergeRequest' in noteable) return { merge_request: mergeRequestAttributes(noteable.mergeRequest, project) };
  if ('issue' in noteable) return { issue: issueAttributes(noteable.issue, project) };
  return { commit: commitHookAttributes(noteable.commit, project) };
}

/** Where a note is shown: its merge request, issue or commit, at the note. */
function noteUrl(note: NoteFacts, noteable: Noteable, project: HookProject): string {
  if ('commit' in noteable) return `${project.webUrl}/-/commit/${noteable.commit.id}#note_${note.id}`;
  return `${project.webUrl}/-/${'issue' in noteable ? 'issues' : 'merge_requests'}/${note.noteableIid}#note_${note.id}`;
}

/**
 * A comment event (`Gitlab::DataBuilder::Note`): the note, and what it is on under `merge_request`
 * or `issue`; a note on a confidential issue is a `confidential_note` event.
 */
export function notePayload(options: {
  note: NoteFacts;
  action: 'create' | 'update';
  noteable: Noteable;
  project: HookProject;
  user: HookUser | undefined;
}) {
  const { note, action, noteable, project, user } = options;
  const confidential = 'issue' in noteable && noteable.issue.confidential;
  return {
    object_kind: 'note',
    event_type: confidential ? 'confidential_note' : 'note',
    user: userAttributes(user),
    project_id: project.id,
    project: projectAttributes(project),
    repository: { name: project.name, url: sshUrl(project), description: project.description, homepage: project.webUrl },
    object_attributes: {
      id: note.id,
      note: note.body,
      noteable_type: note.noteableType,
      author_id: note.authorId,
      created_at: changeTimestamp(note.createdAt),
      updated_at: changeTimestamp(note.updatedAt),
      project_id: project.id,
      attachment: null,
      line_code: null,
      commit_id: 'commit' in noteable ? noteable.commit.id : '',
      noteable_id: 'commit' in noteable ? null : note.noteableId,
      system: false,
      st_diff: null,
      action,
      url: noteUrl(note, noteable, project),
    },
    ...noteableAttributes(noteable, project),
  };
}

/** System hook bodies for projects, users and groups (`Gitlab::HookData::*Builder`). */
export function projectSystemPayload(options: {
  event: 'project_create' | 'project_destroy' | 'project_update' | 'project_rename' | 'project_transfer';
  project: { id: number; name: string; path: string; pathWithNamespace: string; visibility: string };
  owner: { name: string } | null;
  occurredAt: string;
  /** Where a renamed or transferred project was. */
  oldPathWithNamespace?: string;
}) {
  const { project, owner, occurredAt, oldPathWithNamespace } = options;
  return {
    created_at: occurredAt,
    updated_at: occurredAt,
    event_name: options.event,
    name: project.name,
    owner_email: '',
    owner_name: owner?.name ?? '',
    owners: owner ? [{ name: owner.name, email: '[REDACTED]' }] : [],
    path: project.path,
    path_with_namespace: project.pathWithNamespace,
    project_id: project.id,
    project_visibility: project.visibility,
    ...(oldPathWithNamespace === undefined ? {} : { old_path_with_namespace: oldPathWithNamespace }),
  };
}

export function userSystemPayload(options: {
  event: 'user_create' | 'user_destroy' | 'user_rename';
  user: { id: number; name: string; username: string; email: string };
  occurredAt: string;
  /** A renamed user's previous username. */
  oldUsername?: string;
}) {
  const { user, occurredAt, oldUsername } = options;
  return {
    created_at: occurredAt,
    updated_at: occurredAt,
    email: user.email,
    event_name: options.event,
    name: user.name,
    username: user.username,
    user_id: user.id,
    ...(oldUsername === undefined ? {} : { old_username: oldUsername }),
  };
}

export function groupSystemPayload(options: {
  event: 'group_create' | 'group_destroy' | 'group_rename';
  group: { id: number; name: string; path: string; fullPath: string };
  occurredAt: string;
  /** A renamed group's previous path. */
  oldPath?: string;
}) {
  const { group, occurredAt, oldPath } = options;
  return {
    created_at: occurredAt,
    updated_at: occurredAt,
    event_name: options.event,
    name: group.name,
    owner_email: null,
    owner_name: null,
    path: group.path,
    full_path: group.fullPath,
    group_id: group.id,
    ...(oldPath === undefined ? {} : { old_path: oldPath, old_full_path: [...group.fullPath.split('/').slice(0, -1), oldPath].join('/') }),
  };
}

/** GitLab's `human_access` of a membership's access level. */
const HUMAN_ACCESS: Record<number, string> = {
  5: 'Minimal Access',
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
};

/** What happened to a membership, as system hooks name it for projects (`team`) and groups. */
export type MemberChange = 'create' | 'update' | 'destroy' | 'request' | 'revoke';

const PROJECT_MEMBER_EVENTS: Record<MemberChange, string> = {
  create: 'user_add_to_team',
  update: 'user_update_for_team',
  destroy: 'user_remove_from_team',
  request: 'user_access_request_to_project',
  revoke: 'user_access_request_revoked_for_project',
};

const GROUP_MEMBER_EVENTS: Record<MemberChange, string> = {
  create: 'user_add_to_group',
  update: 'user_update_for_group',
  destroy: 'user_remove_from_group',
  request: 'user_access_request_to_group',
  revoke: 'user_access_request_revoked_for_group',
};

export interface MemberFacts {
  userId: number;
  username: string;
  userName: string;
  userEmail: string;
  accessLevel: number;
  /** `YYYY-MM-DD`, null when it never expires. */
  expiresAt: string | null;
}

/** A project membership's system hook body (`Gitlab::HookData::ProjectMemberBuilder`). */
export function projectMemberSystemPayload(options: {
  change: MemberChange;
  member: MemberFacts;
  project: { id: number; name: string; path: string; pathWithNamespace: string; visibility: string };
  occurredAt: string;
}) {
  const { member, project } = options;
  const at = hookTimestamp(options.occurredAt);
  return {
    created_at: at,
    updated_at: at,
    project_name: project.name,
    project_path: project.path,
    project_path_with_namespace: project.pathWithNamespace,
    project_id: project.id,
    user_username: member.username,
    user_name: member.userName,
    user_email: member.userEmail,
    user_id: member.userId,
    access_level: HUMAN_ACCESS[member.accessLevel] ?? String(member.accessLevel),
    project_visibility: project.visibility,
    event_name: PROJECT_MEMBER_EVENTS[options.change],
  };
}

/** A group membership's system hook body (`Gitlab::HookData::GroupMemberBuilder`). */
export function groupMemberSystemPayload(options: {
  change: MemberChange;
  member: MemberFacts;
  group: { id: number; name: string; path: string };
  occurredAt: string;
}) {
  const { member, group } = options;
  const at = hookTimestamp(options.occurredAt);
  return {
    created_at: at,
    updated_at: at,
    group_name: group.name,
    group_path: group.path,
    group_id: group.id,
    user_username: member.username,
    user_name: member.userName,
    user_email: member.userEmail,
    user_id: member.userId,
    group_access: HUMAN_ACCESS[member.accessLevel] ?? String(member.accessLevel),
    expires_at: member.expiresAt ? hookTimestamp(`${member.expiresAt}T00:00:00Z`) : null,
    event_name: GROUP_MEMBER_EVENTS[options.change],
  };
}

/** What group member hooks call a membership's change: a denied access request is `denied` there. */
const MEMBER_HOOK_EVENTS: Record<MemberChange, string> = {
  ...GROUP_MEMBER_EVENTS,
  revoke: 'user_access_request_denied_for_group',
};

/**
 * A group membership's Member Hook body, for the group's own hooks (and its ancestors'): the system
 * hook's, with the group's plan (none on a self-managed instance) and the member's email redacted,
 * since no public email is known here.
 */
export function groupMemberHookPayload(options: {
  change: MemberChange;
  member: MemberFacts;
  group: { id: number; name: string; path: string };
  occurredAt: string;
}) {
  return {
    ...groupMemberSystemPayload(options),
    user_email: '[REDACTED]',
    group_plan: null,
    event_name: MEMBER_HOOK_EVENTS[options.change],
  };
}

/** A group as subgroup hooks describe it and its parent. */
export interface SubgroupFacts {
  id: number;
  name: string;
  path: string;
  fullPath: string;
}

/** A subgroup created in, or removed from, a group (`Gitlab::HookData::SubgroupBuilder`), for the parent's hooks and its ancestors'. */
export function subgroupPayload(options: {
  event: 'subgroup_create' | 'subgroup_destroy';
  subgroup: SubgroupFacts;
  parent: SubgroupFacts;
  occurredAt: string;
}) {
  const { subgroup, parent } = options;
  const at = hookTimestamp(options.occurredAt);
  return {
    created_at: at,
    updated_at: at,
    event_name: options.event,
    name: subgroup.name,
    path: subgroup.path,
    full_path: subgroup.fullPath,
    group_id: subgroup.id,
    parent_group_id: parent.id,
    parent_name: parent.name,
    parent_path: parent.path,
    parent_full_path: parent.fullPath,
  };
}
