import { z } from 'zod';
import type { AuthenticatedCaller, Caller } from '@platform/auth';
import { InputError, NotFoundError } from '@platform/errors';
import { params, reply, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import { blobSha256, jsonWithBase64Content, rawBlobReply } from '../repositories/blob-content.ts';
import { accessRepository } from '../repositories/project-repositories.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { CONTENT_BODY_BYTES, gitRevision, repositoryPath } from '../repositories/repository-params.ts';
import type { CommitWriter, CommitAction, CommitRequest } from '../repository-writes/commit-writer.ts';
import { blameRangeView, fileHeaders, type FileFields } from './repository-file-views.ts';

export interface RepositoryFilesRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
  commits: CommitWriter;
}

/** Blame reads the whole file and answers it as JSON: past this size it is refused rather than held in memory. */
export const BLAME_MAXIMUM_BYTES = 10 * 1024 * 1024;
const EXECUTABLE_MODE = '100755';

const route = routesOf<RepositoryFilesRouteDeps>('review');

/** The file at `ref`, once the caller may read the code: 404 `Commit` for a ref naming nothing, 404 `File` for a path naming no file. */
async function fileAt(options: { deps: RepositoryFilesRouteDeps; caller: Caller; id: string | number; filePath: string; ref: string }) {
  const { repository } = await accessRepository({ ...options.deps, caller: options.caller, idOrPath: options.id, need: 'read' });
  const commitId = await repository.git.resolveCommit(options.ref);
  if (!commitId) throw new NotFoundError('Commit');
  const entry = await repository.git.entryAt(commitId, options.filePath);
  if (!entry || entry.type !== 'blob') throw new NotFoundError('File');
  return { git: repository.git, commitId, entry };
}

async function fileFields(file: Awaited<ReturnType<typeof fileAt>>, ref: string): Promise<FileFields> {
  const [contentSha256, lastCommitId] = await Promise.all([
    blobSha256(file.git, file.entry.id),
    file.git.lastCommitIdFor(file.commitId, file.entry.path),
  ]);
  return {
    file_name: file.entry.name,
    file_path: file.entry.path,
    size: file.entry.size,
    encoding: 'base64',
    content_sha256: contentSha256,
    ref,
    blob_id: file.entry.id,
    commit_id: file.commitId,
    last_commit_id: lastCommitId,
    execute_filemode: file.entry.mode === EXECUTABLE_MODE,
  };
}

const fileInput = z.object({ id: params.idOrPath(), file_path: repositoryPath(), ref: gitRevision() });

/** GitLab's refusal of a stale `last_commit_id` on the files API (`Files::UpdateService`). */
export const FILE_CHANGED_MESSAGE = 'You are attempting to update a file that has changed since you started editing it.';

/** What every file write takes (`lib/api/files.rb`'s commit parameters). */
const fileWriteInput = z.object({
  id: params.idOrPath(),
  file_path: repositoryPath(),
  branch: gitRevision(),
  start_branch: gitRevision().optional(),
  commit_message: z.string().max(1024 * 1024),
  author_email: z.string().max(255).optional(),
  author_name: z.string().max(255).optional(),
  last_commit_id: z.string().max(64).optional(),
});
const contentInput = fileWriteInput.extend({
  content: z.string(),
  encoding: z.enum(['text', 'base64']).default('text'),
  execute_filemode: params.boolean().optional(),
});

const decoded = (input: z.infer<typeof contentInput>) => Buffer.from(input.content, input.encoding === 'base64' ? 'base64' : 'utf8');

/** Writes one file action as a commit on `branch`, as the caller (a developer, or whoever the branch's protection lets push). */
async function writeFile(options: {
  deps: RepositoryFilesRouteDeps;
  caller: AuthenticatedCaller;
  input: z.infer<typeof fileWriteInput>;
  action: CommitAction;
}) {
  const { deps, caller, input } = options;
  const accessed = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'push' });
  const request: CommitRequest = {
    branch: input.branch,
    startBranch: input.start_branch,
    force: false,
    message: input.commit_message,
    authorName: input.author_name,
    authorEmail: input.author_email,
    actions: [options.action],
    staleFileMessage: () => FILE_CHANGED_MESSAGE,
  };
  await deps.commits.commit({ accessed, caller, request });
  return { file_path: input.file_path, branch: input.branch };
}

export const repositoryFilesRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/files/:file_path',
    access: 'anonymous',
    // GitLab's files API also takes read_repository tokens for its reads.
    scope: 'read_code',
    input: fileInput,
    // HEAD is answered here too (express routes it to GET): the same headers, no body.
    handle: async ({ caller, input, deps, request }) => {
      const file = await fileAt({ deps, caller, id: input.id, filePath: input.file_path, ref: input.ref });
      const fields = await fileFields(file, input.ref);
      const headers = fileHeaders(fields);
      if (request.method === 'HEAD') return reply({ headers });
      return reply({
        headers: { ...headers, 'Content-Type': 'application/json' },
        stream: jsonWithBase64Content({ git: file.git, blobId: file.entry.id, fields: { ...fields } }),
      });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/files/:file_path/raw',
    access: 'anonymous',
    // GitLab's files API also takes read_repository tokens for its reads.
    scope: 'read_code',
    input: z.object({
      id: params.idOrPath(),
      file_path: repositoryPath({ leadingSlash: true }),
      ref: gitRevision().optional(),
      // LFS objects are not kept here: a pointer file is answered as it is.
      lfs: params.boolean().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const ref = input.ref ?? 'HEAD';
      const file = await fileAt({ deps, caller, id: input.id, filePath: input.file_path, ref });
      const fields = await fileFields(file, ref);
      return rawBlobReply({ git: file.git, blob: file.entry, fileName: file.entry.name, headers: fileHeaders(fields) });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/files/:file_path/blame',
    access: 'anonymous',
    // GitLab's files API also takes read_repository tokens for its reads.
    scope: 'read_code',
    input: fileInput.extend({
      range: z.object({ start: params.integer().refine((line) => line > 0), end: params.integer().refine((line) => line > 0) }).optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      if (input.range && input.range.start > input.range.end) throw new InputError('range[start] must be less than or equal to range[end]');
      const file = await fileAt({ deps, caller, id: input.id, filePath: input.file_path, ref: input.ref });
      if (file.entry.size > BLAME_MAXIMUM_BYTES)
        throw new InputError(`file_path is too large to blame (maximum is ${BLAME_MAXIMUM_BYTES} bytes)`);
      const ranges = await file.git.blame({
        commit: file.commitId,
        filePath: file.entry.path,
        ...(input.range ? { range: input.range } : {}),
      });
      if (ranges === null) throw new InputError('range is beyond the end of the file');
      const commits = new Map(
        (await file.git.commitsByIds([...new Set(ranges.map((range) => range.commitId))])).map((commit) => [commit.id, commit]),
      );
      const body = ranges.flatMap((range) => {
        const commit = commits.get(range.commitId);
        return commit ? [blameRangeView(commit, range.lines)] : [];
      });
      return reply({ headers: fileHeaders(await fileFields(file, input.ref)), body });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/repository/files/:file_path',
    access: 'user',
    scope: 'api',
    status: 201,
    input: contentInput,
    bodyBytes: CONTENT_BODY_BYTES,
    handle: ({ caller, input, deps }) =>
      writeFile({
        deps,
        caller,
        input,
        action: { action: 'create', filePath: input.file_path, content: decoded(input), executeFilemode: input.execute_filemode },
      }),
  }),

  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/repository/files/:file_path',
    access: 'user',
    scope: 'api',
    input: contentInput,
    bodyBytes: CONTENT_BODY_BYTES,
    handle: ({ caller, input, deps }) =>
      writeFile({
        deps,
        caller,
        input,
        action: {
          action: 'update',
          filePath: input.file_path,
          content: decoded(input),
          executeFilemode: input.execute_filemode,
          lastCommitId: input.last_commit_id,
        },
      }),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/repository/files/:file_path',
    access: 'user',
    scope: 'api',
    status: 204,
    input: fileWriteInput,
    handle: async ({ caller, input, deps }) => {
      await writeFile({ deps, caller, input, action: { action: 'delete', filePath: input.file_path, lastCommitId: input.last_commit_id } });
    },
  }),
];
