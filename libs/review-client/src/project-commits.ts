import type { AuthenticatedCaller } from '@platform/auth';
import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { ReviewServiceClient } from '@platform/proto/review/v1';

/** The commits revisions name in a project's repository: review owns repositories. */
export interface ProjectCommits {
  /**
   * For each of `revisions` (a branch, a tag, a sha), the sha of the commit it names in the
   * project's repository, or null when it names none; as the caller may read the repository.
   */
  resolve(options: { caller: AuthenticatedCaller; projectId: number; revisions: string[] }): Promise<Array<string | null>>;
  /** The branches whose history contains the commit `sha`, sorted by name; as the caller may read the repository. */
  branchesContaining(options: { caller: AuthenticatedCaller; projectId: number; sha: string }): Promise<string[]>;
  close(): void;
}

/** A commit as pushes describe it. */
export interface CommitDetails {
  id: string;
  /** The whole message as written. */
  message: string;
  authorName: string;
  authorEmail: string;
  /** ISO 8601 with the committer's offset. */
  committedDate: string;
}

/** Asks review's ResolveCommits, ListBranchesContaining and GetCommit over gRPC, for the caller. */
export class GrpcProjectCommits implements ProjectCommits {
  readonly #client: ReviewServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new ReviewServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async resolve(options: Parameters<ProjectCommits['resolve']>[0]): Promise<Array<string | null>> {
    const response = await callUnary(
      this.#client.resolveCommits.bind(this.#client),
      { projectId: options.projectId, revisions: options.revisions },
      // Review asks identity about the caller, then git: more than the default two seconds on a busy host.
      { caller: options.caller, deadlineMs: 5_000 },
    );
    return options.revisions.map((_revision, index) => response.commitIds[index] || null);
  }

  async branchesContaining(options: Parameters<ProjectCommits['branchesContaining']>[0]): Promise<string[]> {
    const response = await callUnary(
      this.#client.listBranchesContaining.bind(this.#client),
      { projectId: options.projectId, sha: options.sha },
      { caller: options.caller, deadlineMs: 5_000 },
    );
    return response.branchNames;
  }

  /** The commit with the full sha `sha`, null when the repository has none; as the caller may read the repository. */
  async commit(options: { caller: AuthenticatedCaller; projectId: number; sha: string }): Promise<CommitDetails | null> {
    const response = await callUnary(
      this.#client.getCommit.bind(this.#client),
      { projectId: options.projectId, sha: options.sha },
      { caller: options.caller, deadlineMs: 5_000 },
    );
    return response.commit ?? null;
  }

  close(): void {
    this.#client.close();
  }
}

/** Repositories held in memory, each a map from the revisions it knows to their commits: for tests. */
export class FakeProjectCommits implements ProjectCommits {
  readonly #repositories = new Map<number, Map<string, string>>();

  /** Adds revisions of a project's repository; a commit's own sha names it too. */
  add(projectId: number, revisions: Record<string, string>): this {
    const known = this.#repositories.get(projectId) ?? new Map<string, string>();
    for (const [revision, sha] of Object.entries(revisions)) known.set(revision, sha).set(sha, sha);
    this.#repositories.set(projectId, known);
    return this;
  }

  async resolve(options: Parameters<ProjectCommits['resolve']>[0]): Promise<Array<string | null>> {
    const known = this.#repositories.get(options.projectId);
    return options.revisions.map((revision) => known?.get(revision) ?? null);
  }

  /** The revisions added (other than shas) whose commit is `sha`, as if each were a branch of that one commit. */
  async branchesContaining(options: Parameters<ProjectCommits['branchesContaining']>[0]): Promise<string[]> {
    const known = this.#repositories.get(options.projectId) ?? new Map<string, string>();
    return [...known]
      .filter(([revision, sha]) => sha === options.sha && revision !== sha)
      .map(([revision]) => revision)
      .sort();
  }

  close(): void {}
}
