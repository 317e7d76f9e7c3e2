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

/** The file a request names, read once the caller may see the project or group (GitLab authorizes first). */
export const mavenFileParams = z.object({ path: repositoryPath(), file_name: segment });
/** What routes take before the access check: the project or group, and the file as given. */
export const mavenRouteParams = z.object({ id: params.idOrPath() }).loose();
