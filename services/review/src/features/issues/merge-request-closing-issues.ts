import type { AuthenticatedCaller } from '@platform/auth';
import type { EntityManager } from '@platform/db';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import { mayReadIssue } from '../core/issue-access.ts';
import { projectsSeenBy } from '../core/projects-seen.ts';
import { closingMentionsIn } from './closing-references.ts';
import type { Issue } from './issue.entity.ts';
import type { MergeRequest } from '../merge-requests/merge-request.entity.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { ProjectRepository, RepositoriesService } from '../repositories/repositories-service.ts';
import type { PgMergeRequestClosingIssuesStore } from './merge-request-closing-issues-store.ts';

/** Where the backfill finds repositories (it makes none). */
export type RepositoryFinder = Pick<RepositoriesService, 'find'>;

/** What the relation reads issues with. */
export interface ClosableIssues {
  byIids(projectId: number, iids: number[]): Promise<Issue[]>;
  byIds(ids: number[]): Promise<Issue[]>;
}

/** A merge request whose closing references are read again, by whom (their access decides which issues count). */
export interface ClosingIssuesRefresh {
  mergeRequest: MergeRequest;
  repository: ProjectRepository;
  /** Who reads them: the merge request's author when not given (a push, a new version). */
  author?: AuthenticatedCaller | undefined;
  /** The merge request's project as `author` sees it, when the caller has it. */
  project?: ProjectAccess | undefined;
}

/**
 * GitLab's merge_requests_closing_issues: the issues a merge request closes when merged, kept when
 * it is created, edited or gets new commits (`cache_merge_request_closes_issues!`) and read by an
 * issue's `closed_by`, the merge request's `closes_issues` and the merge that closes them.
 */
export class MergeRequestClosingIssues {
  readonly #access: IdentityAccess;
  readonly #store: PgMergeRequestClosingIssuesStore;
  readonly #issues: ClosableIssues;
  readonly #mergeRequests: Pick<MergeRequestsService, 'latestVersion'>;

  constructor(options: {
    access: IdentityAccess;
    store: PgMergeRequestClosingIssuesStore;
    issues: ClosableIssues;
    mergeRequests: Pick<MergeRequestsService, 'latestVersion'>;
  }) {
    this.#access = options.access;
    this.#store = options.store;
    this.#issues = options.issues;
    this.#mergeRequests = options.mergeRequests;
  }

  /**
   * Reads the merge request's closing references again and writes what they name, in the caller's
   * transaction; a closed or merged merge request keeps what it had (as GitLab's).
   */
  async refresh(options: ClosingIssuesRefresh): Promise<void> {
    if (options.mergeRequest.state !== 'opened') return;
    await this.#store.replace(options.mergeRequest.id, (await this.#closedIssueIds(options)) ?? []);
  }

  /**
   * Reads again, as their authors read them, the closing references of up to `limit` merge
   * requests of any state after `afterId` (the migration's backfill saw only `#<iid>` in titles and
   * descriptions, and no default branch), each in a transaction of its own; answers the last id
   * read, or null when none was left. Those whose project or repository is gone keep theirs.
   */
  async backfill(options: { afterId: number; limit: number; em: EntityManager; repositories: RepositoryFinder }): Promise<number | null> {
    const mergeRequests = await this.#store.mergeRequestsAfter(options.afterId, options.limit);
    for (const mergeRequest of mergeRequests) {
      const repository = await options.repositories.find(mergeRequest.projectId);
      if (!repository) continue;
      const ids = await this.#closedIssueIds({ mergeRequest, repository });
      if (ids) await options.em.transactional(() => this.#store.replace(mergeRequest.id, ids));
    }
    return mergeRequests.at(-1)?.id ?? null;
  }

  /** The ids of the issues the merge request closes. */
  issueIds(mergeRequestId: number): Promise<number[]> {
    return this.#store.issueIds(mergeRequestId);
  }

  /** The issues the merge request closes. */
  async issues(mergeRequestId: number): Promise<Issue[]> {
    const ids = await this.#store.issueIds(mergeRequestId);
    return ids.length === 0 ? [] : this.#issues.byIds(ids);
  }

  /** The iids of the project's merge requests that close the issue. */
  mergeRequestIids(options: { projectId: number; issueId: number }): Promise<number[]> {
    return this.#store.mergeRequestIids(options);
  }

  /**
   * GitLab's `closes_issues`: closing references in the title, description and commit messages of
   * a merge request into the default branch, to issues of its project or another that the author
   * may read; undefined when the author may not see its project.
   */
  async #closedIssueIds(options: ClosingIssuesRefresh): Promise<number[] | undefined> {
    const { mergeRequest, repository } = options;
    const author = options.author ?? authorOf(mergeRequest);
    const projectOf = projectsSeenBy(this.#access, author);
    const home = options.project ?? (await projectOf(String(mergeRequest.projectId)));
    // Undefined when the author may not see the merge request's project (any more).
    if (!home) return undefined;
    const defaultBranch = home.defaultBranch || (await repository.git.headBranch());
    if (mergeRequest.targetBranch !== defaultBranch) return [];
    const latest = await this.#mergeRequests.latestVersion(mergeRequest);
    const commits = latest ? await repository.git.log({ head: latest.headCommitSha, excluded: [latest.baseCommitSha] }) : [];
    const text = [mergeRequest.title, mergeRequest.description, ...commits.map((commit) => commit.message)].join('\n');
    const ids: number[] = [];
    for (const mention of closingMentionsIn(text)) {
      const project = mention.projectPath === null ? home : await projectOf(mention.projectPath);
      if (!project || (mention.projectUrl !== null && project.webUrl.toLowerCase() !== mention.projectUrl)) continue;
      const [issue] = await this.#issues.byIids(project.id, [mention.iid]);
      if (issue && mayReadIssue(project, author, issue)) ids.push(issue.id);
    }
    return ids;
  }
}

/** The merge request's author, who reads its closing references when no user is at hand (a push): GitLab's default. */
function authorOf(mergeRequest: MergeRequest): AuthenticatedCaller {
  return { kind: 'user', userId: mergeRequest.authorId, username: '', name: '', isAdmin: false, scopes: ['api'] };
}
