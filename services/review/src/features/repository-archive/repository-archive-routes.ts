import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import { params, reply, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { ArchiveFormat } from '../repositories/git-repository.ts';
import { accessRepository } from '../repositories/project-repositories.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { gitRevision, repositoryPath } from '../repositories/repository-params.ts';

export interface RepositoryArchiveRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
}

const route = routesOf<RepositoryArchiveRouteDeps>('review');

/** GitLab's archive format names and the archive each one is; anything else is a tar.gz, as GitLab falls back. */
const ARCHIVE_FORMATS: Record<string, ArchiveFormat> = {
  zip: 'zip',
  tar: 'tar',
  'tar.gz': 'tar.gz',
  tgz: 'tar.gz',
  gz: 'tar.gz',
  'tar.bz2': 'tar.bz2',
  tbz: 'tar.bz2',
  tbz2: 'tar.bz2',
  tb2: 'tar.bz2',
  bz2: 'tar.bz2',
};

const archiveInput = z.object({
  id: params.idOrPath(),
  sha: gitRevision().optional(),
  format: z.string().max(16).optional(),
  path: repositoryPath({ leadingSlash: true }).optional(),
  // LFS objects are not kept here, and paths are excluded by `path` only: both are accepted as GitLab takes them.
  include_lfs_blobs: params.boolean().optional(),
  exclude_paths: params.stringList().optional(),
});

/**
 * `git archive` of the commit `sha` names (the default branch without it), streamed to the client
 * as git writes it; git is stopped when the client goes away. Named as GitLab names it:
 * `<project>-<ref>-<sha>[-<path>].<extension>`, its entries under that name. 404 `File` for a ref or path naming nothing.
 */
async function archiveReply(deps: RepositoryArchiveRouteDeps, caller: Caller, input: z.output<typeof archiveInput>) {
  const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
  const ref = input.sha ?? project.defaultBranch;
  const commitId = await repository.git.resolveCommit(ref);
  if (!commitId) throw new NotFoundError('File');
  const subPath = input.path?.replace(/\/+$/, '');
  if (subPath && !(await repository.git.entryAt(commitId, subPath))) throw new NotFoundError('File');
  const format = ARCHIVE_FORMATS[input.format ?? 'tar.gz'] ?? 'tar.gz';
  const projectName = project.pathWithNamespace.split('/').at(-1) ?? String(project.id);
  const prefix = [projectName, ref.replaceAll('/', '-'), commitId, ...(subPath ? [subPath.replaceAll('/', '-')] : [])].join('-');
  const fileName = `${prefix}.${format}`;
  return reply({
    headers: {
      'Content-Type': format === 'zip' ? 'application/zip' : 'application/octet-stream',
      'Content-Disposition': `attachment; filename="${fileName.replace(/["\\]/g, '_')}"`,
      'Content-Transfer-Encoding': 'binary',
    },
    stream: repository.git.archive({ commit: commitId, format, prefix, ...(subPath ? { subPath } : {}) }),
  });
}

export const repositoryArchiveRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/archive',
    access: 'anonymous',
    scope: 'read_api',
    input: archiveInput,
    handle: ({ caller, input, deps }) => archiveReply(deps, caller, input),
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/archive.:format',
    access: 'anonymous',
    scope: 'read_api',
    input: archiveInput,
    handle: ({ caller, input, deps }) => archiveReply(deps, caller, input),
  }),
];
