import { z } from 'zod';
import { params } from '@platform/http';

const segment = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9._+-]+$/, { message: 'is invalid' });

/** The directories of a repository path (`com/example/app/1.0`), as express hands a wildcard over. */
const repositoryPath = () =>
  z.preprocess((value) => (typeof value === 'string' ? value.split('/') : value), z.array(segment).min(1).max(64));

export const instanceMavenFileParams = z.object({ path: repositoryPath(), file_name: segment });
export const projectMavenFileParams = instanceMavenFileParams.extend({ id: params.idOrPath() });
export const groupMavenFileParams = projectMavenFileParams;
